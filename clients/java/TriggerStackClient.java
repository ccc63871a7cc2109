/*
 * A client of `triggerstack serve --stdio` for engines on the JVM (Forge, XMage), in one file with
 * nothing beyond the JDK: it starts the server as a child process, writes one JSON-RPC 2.0
 * request per line and reads one response per line. JSON is read by a small parser here; requests
 * are written with quote() and the caller's own JSON text for proposals and scores.
 *
 *   javac -d out clients/java/TriggerStackClient.java
 *   java -cp out TriggerStackClient SCENARIO LEGAL.json ILLEGAL.json [SERVER COMMAND...]
 *
 * The server command defaults to `triggerstack serve --stdio`, found on the PATH as any program
 * ProcessBuilder starts; pass the whole command to use another (a virtualenv's
 * `/path/to/.venv/bin/triggerstack serve --stdio`, or `python3 -m triggerstack.solver serve --stdio`).
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class TriggerStackClient implements AutoCloseable {

    /** A JSON-RPC error the server answered: its code, message and data (the place, the rule). */
    public static final class RpcException extends RuntimeException {
        public final int code;
        public final Object data;

        RpcException(int code, String message, Object data) {
            super(message);
            this.code = code;
            this.data = data;
        }
    }

    private final Process process;
    private final BufferedWriter requests;
    private final BufferedReader responses;
    private long nextId = 1;

    /** Starts the server with {@code command}, e.g. {@code List.of("triggerstack", "serve", "--stdio")}. */
    public TriggerStackClient(List<String> command) throws IOException {
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        responses = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Calls {@code method} with {@code paramsJson} (a JSON object's text); returns the parsed result. */
    public synchronized Object call(String method, String paramsJson) throws IOException {
        long id = nextId++;
        requests.write("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":" + quote(method) + ",\"params\":" + paramsJson + "}\n");
        requests.flush();
        String line = responses.readLine();
        if (line == null) {
            throw new IOException("the server ended");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) parse(line);
        if (answer.containsKey("error")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> error = (Map<String, Object>) answer.get("error");
            throw new RpcException(((BigInteger) error.get("code")).intValue(), (String) error.get("message"), error.get("data"));
        }
        return answer.get("result");
    }

    /** Loads the scenario file at {@code path} once; returns its handle. */
    public String load(String path) throws IOException {
        return (String) asMap(call("load", "{\"path\":" + quote(path) + "}")).get("handle");
    }

    /** Loads a scenario given as JSON text (an engine's board, built in memory) once; returns its handle. */
    public String loadScenario(String scenarioJson) throws IOException {
        String scenario = toJson(parse(scenarioJson)); // one line: a request is one line
        return (String) asMap(call("load", "{\"scenario\":" + scenario + "}")).get("handle");
    }

    /** The verdict of a proposal (its JSON text, on any number of lines): the object {@code check --json} prints. */
    public Map<String, Object> check(String handle, String proposalJson) throws IOException {
        String proposal = toJson(parse(proposalJson)); // one line: a request is one line
        return asMap(call("check", "{\"handle\":" + quote(handle) + ",\"proposal\":" + proposal + "}"));
    }

    /** The exact number of legal outcomes (it can be larger than a long). */
    public BigInteger count(String handle) throws IOException {
        return (BigInteger) asMap(call("count", "{\"handle\":" + quote(handle) + "}")).get("count");
    }

    @Override
    public void close() throws IOException {
        requests.close(); // end of input ends the server
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    // -- JSON ------------------------------------------------------------------------------------

    /** A JSON string literal for {@code s}. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** Compact JSON text, on one line, for what {@link #parse} returns. */
    public static String toJson(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text) {
            return quote(text);
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(quote(String.valueOf(e.getKey()))).append(':').append(toJson(e.getValue()));
            }
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (Object item : list) {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(toJson(item));
            }
            return out.append(']').toString();
        }
        return value.toString(); // numbers and booleans
    }

    /** JSON text a strict reader refuses, with why in the words of docs/conformance.md. */
    public static final class JsonError extends IllegalArgumentException {
        public final String reason;

        JsonError(String reason, String detail) {
            super(reason + ": " + detail);
            this.reason = reason;
        }
    }

    /** The deepest nesting read: a value inside more containers than this is refused (as the Python runner does). */
    public static final int MAX_DEPTH = 64;
    /** The most digits of one integer read: a longer one is refused before it is converted. */
    public static final int MAX_DIGITS = 20_000;
    private static final java.util.regex.Pattern NUMBER =
        java.util.regex.Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    /**
     * Parses JSON text strictly (RFC 8259: no NaN, no raw control characters in strings, no lone
     * surrogates, no duplicate keys): Map (objects, in order), List, String, BigInteger, BigDecimal,
     * Boolean, null. Refused text is a {@link JsonError}: malformed, nested deeper than 64, or an
     * integer of more than 20000 digits.
     */
    public static Object parse(String text) {
        int[] at = {0};
        boolean[] deep = {false};
        Object value;
        try {
            value = value(text, at, 0, deep);
            skip(text, at);
        } catch (StringIndexOutOfBoundsException e) {
            throw new JsonError("malformed", "the text ends early");
        }
        if (at[0] != text.length()) {
            throw new JsonError("malformed", "trailing text at " + at[0]);
        }
        if (deep[0]) { // read whole first, as Python's reader does: a malformed tail is said before the depth
            throw new JsonError("nested deeper than " + MAX_DEPTH, "a value inside more than " + MAX_DEPTH + " containers");
        }
        return value;
    }

    private static void skip(String s, int[] at) {
        while (at[0] < s.length() && " \t\n\r".indexOf(s.charAt(at[0])) >= 0) {
            at[0]++;
        }
    }

    private static Object value(String s, int[] at, int depth, boolean[] deep) {
        if (depth > MAX_DEPTH) {
            deep[0] = true;
            if (depth > 900) { // past what a reader recurses into: refused at once
                throw new JsonError("nested deeper than " + MAX_DEPTH, "a value inside more than " + MAX_DEPTH + " containers");
            }
        }
        skip(s, at);
        char c = s.charAt(at[0]);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            at[0]++;
            skip(s, at);
            if (s.charAt(at[0]) == '}') {
                at[0]++;
                return map;
            }
            while (true) {
                skip(s, at);
                String key = string(s, at);
                skip(s, at);
                expect(s, at, ':');
                if (map.containsKey(key)) {
                    throw new JsonError("malformed", "duplicate key " + key);
                }
                map.put(key, value(s, at, depth + 1, deep));
                skip(s, at);
                if (s.charAt(at[0]) == ',') {
                    at[0]++;
                } else {
                    expect(s, at, '}');
                    return map;
                }
            }
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            at[0]++;
            skip(s, at);
            if (s.charAt(at[0]) == ']') {
                at[0]++;
                return list;
            }
            while (true) {
                list.add(value(s, at, depth + 1, deep));
                skip(s, at);
                if (s.charAt(at[0]) == ',') {
                    at[0]++;
                } else {
                    expect(s, at, ']');
                    return list;
                }
            }
        }
        if (c == '"') {
            return string(s, at);
        }
        if (s.startsWith("true", at[0])) {
            at[0] += 4;
            return Boolean.TRUE;
        }
        if (s.startsWith("false", at[0])) {
            at[0] += 5;
            return Boolean.FALSE;
        }
        if (s.startsWith("null", at[0])) {
            at[0] += 4;
            return null;
        }
        int start = at[0];
        while (at[0] < s.length() && "+-0123456789.eE".indexOf(s.charAt(at[0])) >= 0) {
            at[0]++;
        }
        String number = s.substring(start, at[0]);
        if (!NUMBER.matcher(number).matches()) {
            throw new JsonError("malformed", "unexpected " + c + " at " + start);
        }
        if (number.matches("-?\\d+")) {
            if (number.replace("-", "").length() > MAX_DIGITS) {
                throw new JsonError("an integer of more than " + MAX_DIGITS + " digits", "at " + start);
            }
            return new BigInteger(number);
        }
        return new Written(number);
    }

    /**
     * A number written with a point or an exponent, kept with its text: read as what the text says
     * (one past a double's range, 1e400, is a number, not malformed JSON) and shown as written where
     * its double is another number, as the Python runner shows it (model/_numbers.py Inexact).
     */
    public static final class Written extends BigDecimal {
        private static final long serialVersionUID = 1L;
        /** The number as the text wrote it. */
        public final String text;

        Written(String text) {
            super(clamped(text));
            this.text = text;
        }

        /** The text, its exponent held within what BigDecimal takes (a larger one is past every double anyway). */
        private static String clamped(String text) {
            int e = Math.max(text.indexOf('e'), text.indexOf('E'));
            if (e < 0) return text;
            String exp = text.substring(e + 1);
            try {
                Integer.parseInt(exp);
                return text;
            } catch (NumberFormatException huge) {
                return text.substring(0, e + 1) + (exp.startsWith("-") ? "-" : "") + "999999999";
            }
        }
    }

    private static void expect(String s, int[] at, char c) {
        if (s.charAt(at[0]) != c) {
            throw new JsonError("malformed", "expected " + c + " at " + at[0]);
        }
        at[0]++;
    }

    private static String string(String s, int[] at) {
        expect(s, at, '"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = s.charAt(at[0]++);
            if (c == '"') {
                String got = out.toString();
                for (int i = 0; i < got.length(); i++) { // a lone surrogate is no text any output prints
                    char h = got.charAt(i);
                    if (Character.isHighSurrogate(h) && i + 1 < got.length() && Character.isLowSurrogate(got.charAt(i + 1))) {
                        i++;
                    } else if (Character.isSurrogate(h)) {
                        throw new JsonError("malformed", "a lone surrogate");
                    }
                }
                return got;
            }
            if (c < 0x20) {
                throw new JsonError("malformed", "a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(at[0]++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'u' -> {
                    String hex = s.substring(at[0], at[0] + 4);
                    if (!hex.matches("[0-9a-fA-F]{4}")) {
                        throw new JsonError("malformed", "a bad \\u escape");
                    }
                    out.append((char) Integer.parseInt(hex, 16));
                    at[0] += 4;
                }
                default -> throw new JsonError("malformed", "a bad escape \\" + e);
            }
        }
    }

    // -- the example -------------------------------------------------------------------------------

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: TriggerStackClient SCENARIO LEGAL.json ILLEGAL.json [SERVER COMMAND...]");
            System.exit(2);
        }
        List<String> command = args.length > 3
            ? Arrays.asList(args).subList(3, args.length)
            : List.of("triggerstack", "serve", "--stdio");
        try (TriggerStackClient client = new TriggerStackClient(command)) {
            String handle = client.load(args[0]);
            System.out.println("loaded " + handle);
            for (String proposal : new String[] {args[1], args[2]}) {
                Map<String, Object> verdict = client.check(handle, Files.readString(Path.of(proposal)));
                String name = Path.of(proposal).getFileName().toString();
                if (Boolean.TRUE.equals(verdict.get("legal"))) {
                    System.out.println(name + ": legal");
                } else {
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> violations = (List<Map<String, Object>>) verdict.get("violations");
                    Map<String, Object> first = violations.get(0);
                    System.out.println(name + ": illegal, " + violations.size() + " violation" + (violations.size() == 1 ? "" : "s")
                        + ": " + first.get("rule") + " " + first.get("code") + " " + first.get("message"));
                }
            }
            System.out.println("count: " + client.count(handle));
            String inline = client.loadScenario(
                "{\"players\": [\"A\", \"B\"], \"triggers\": ["
                    + "{\"id\": \"T1\", \"controller\": \"A\"}, {\"id\": \"T2\", \"controller\": \"A\"}]}");
            System.out.println("inline count: " + client.count(inline)); // two abilities of A's: 2 orders
            try {
                client.call("count", "{\"handle\":\"nope\"}");
            } catch (RpcException e) {
                System.out.println("error " + e.code + ": " + e.getMessage());
            }
        }
    }
}
