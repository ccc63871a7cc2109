/*
 * The 603.3 conformance suite, run from the JVM (docs/conformance.md): every case of
 * conformance/cases put to an engine over the suite's JSON-RPC protocol — load the scenario, count
 * it with divide, check each legal and illegal proposal — with the first difference of each failing
 * case, perft-style (under which first stack entry the counts part).
 *
 *   javac -d out clients/java/TriggerStackClient.java clients/java/ConformanceRunner.java
 *   java -cp out ConformanceRunner [--time-limit SECONDS] conformance/cases [ENGINE COMMAND...]
 *
 * It applies the protocol of docs/conformance.md as `triggerstack conformance run` does, and says
 * each case, each difference and the summary in the same words (tests/test_runner_parity.py runs
 * both on one table of protocol variations): answers are read as values, never as text — a count
 * of 2.0 is 2, a divide's first entries compare as outcomes do (targets a set, repeated modes a
 * multiset, a field left out equal to its default) — a line that answers no request is skipped and
 * counted, an error from `unload` is ignored, and an engine that stays silent past the time limit
 * is stopped with everything it started.
 *
 * The engine command defaults to `triggerstack serve --stdio`. A Java engine plugs in by speaking
 * the same three methods on its standard input and output.
 */

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class ConformanceRunner {
    private ConformanceRunner() {}

    static final int NOISE_SHOWN = 120;
    static final int MAX_BYTES = 16 * 1024 * 1024;
    static final BigInteger EXACT_FLOAT = BigInteger.TWO.pow(53);
    /** A byte order mark, which some writers (.NET's UTF-8 console) put before their first line: ignored there. */
    static final byte[] BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

    /** A JSON-RPC error, or an answer the protocol does not allow: the case fails with this message. */
    static final class Failure extends Exception {
        final Integer code;

        Failure(String message, Integer code) {
            super(message);
            this.code = code;
        }
    }

    /** An answer of the wrong shape: the case fails saying what was wrong. */
    static final class Wrong extends Exception {
        Wrong(String message) {
            super(message);
        }
    }

    // -- the engine under test ------------------------------------------------------------------

    /** A line read: its text, or where it stops being UTF-8 (and the line with such bytes as \xNN). */
    record Line(String text, int undecodedAt) {}

    static final Object END = new Object();
    static final Object TOO_LONG = new Object();

    /**
     * An engine started from a command line, spoken to on its standard input and output. Each call
     * must be answered within the time limit and each line hold at most 16 MiB; an engine that is
     * silent longer or writes a longer line is stopped, with every process it started.
     */
    static final class Engine implements AutoCloseable {
        final Process process;
        final OutputStream in;
        final BlockingQueue<Object> lines = new ArrayBlockingQueue<>(16);
        final double seconds;
        final List<String> noise = new ArrayList<>();
        long id = 0;
        int noiseAt = 0;
        String ended = null;
        /** False once the engine refused count with divide: never asked again in this run. */
        boolean divideSupported = true;

        Engine(List<String> command, double seconds) throws IOException {
            this.seconds = seconds;
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            in = process.getOutputStream();
            Thread reader = new Thread(this::read);
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            InputStream out = process.getInputStream();
            try {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                int b;
                boolean first = true;
                while ((b = out.read()) != -1) {
                    line.write(b);
                    if (line.size() > MAX_BYTES) {
                        lines.put(TOO_LONG);
                        return;
                    }
                    if (b == '\n') {
                        lines.put(decoded(withoutMark(line.toByteArray(), first)));
                        line.reset();
                        first = false;
                    }
                }
                if (line.size() > 0) {
                    lines.put(decoded(withoutMark(line.toByteArray(), first)));
                }
                lines.put(END);
            } catch (IOException | InterruptedException e) {
                lines.offer(END);
            }
        }

        Failure stop(String why) {
            ended = "the engine was stopped: " + why;
            kill();
            return new Failure(why + " (the engine was stopped)", null);
        }

        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        Object call(String method, String params) throws Failure {
            id++;
            noiseAt = noise.size();
            if (ended != null) {
                throw new Failure(ended, null);
            }
            String request = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":" + TriggerStackClient.quote(method)
                + ",\"params\":" + params + "}\n";
            try {
                in.write(request.getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) { // its input closed: it ended (said so, as when its output ends), or lives on
                try {
                    process.waitFor(1, TimeUnit.SECONDS);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                if (!process.isAlive()) {
                    ended = exitText(process.exitValue());
                    throw new Failure(ended, null);
                }
                throw stop("it stopped reading its input");
            }
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            while (true) {
                Object got;
                try {
                    got = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw stop("interrupted");
                }
                String last = noise.size() > noiseAt ? "; its last line was " + noise.get(noise.size() - 1) : "";
                if (got == null) {
                    throw stop("no answer within " + shownSeconds(seconds) + " s" + last);
                }
                if (got == TOO_LONG) {
                    throw stop("an answer of more than " + MAX_BYTES + " bytes");
                }
                if (got == END) {
                    try {
                        process.waitFor(1, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (process.isAlive()) { // it closed its output and lives on
                        throw stop("it closed its output");
                    }
                    ended = exitText(process.exitValue()) + last; // what it wrote instead; every case after says the same
                    throw new Failure(ended, null);
                }
                Line line = (Line) got;
                if (line.undecodedAt() >= 0) {
                    noise.add("not UTF-8 (byte " + line.undecodedAt() + "): " + shown(line.text()));
                    continue;
                }
                String text = line.text().replaceAll("[\r\n]+$", "");
                Object answer;
                try {
                    answer = TriggerStackClient.parse(text);
                } catch (TriggerStackClient.JsonError e) {
                    noise.add("not JSON the runner reads (" + e.reason + "): " + shown(text));
                    continue;
                }
                BigInteger ident = wholeNumber(answer instanceof Map<?, ?> m ? m.get("id") : null);
                if (ident == null || !ident.equals(BigInteger.valueOf(id))) {
                    noise.add("not the answer to request " + id + ": " + shown(text));
                    continue;
                }
                Map<?, ?> map = (Map<?, ?>) answer;
                if (map.containsKey("error")) {
                    if (!(map.get("error") instanceof Map<?, ?> error)) {
                        throw new Failure("an error that is not an object: " + shown(dumps(map.get("error"))), null);
                    }
                    BigInteger code = wholeNumber(error.get("code"));
                    Integer c = code != null && code.bitLength() < 32 ? code.intValue() : null;
                    String said = error.get("message") instanceof String message ? message
                        : "an error with no message text: " + dumps(error);
                    throw new Failure(shown(said), c);
                }
                if (!map.containsKey("result")) {
                    throw new Failure("an answer with neither result nor error: " + shown(text), null);
                }
                return map.get("result");
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                // an engine that already ended
            }
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            kill();
        }
    }

    /** The first line without a byte order mark before it (not part of the line). */
    static byte[] withoutMark(byte[] bytes, boolean first) {
        boolean marked = first && bytes.length >= BOM.length && Arrays.equals(bytes, 0, BOM.length, BOM, 0, BOM.length);
        return marked ? Arrays.copyOfRange(bytes, BOM.length, bytes.length) : bytes;
    }

    static Line decoded(byte[] bytes) {
        CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return new Line(strict.decode(ByteBuffer.wrap(bytes)).toString(), -1);
        } catch (CharacterCodingException e) {
            // where it stops being UTF-8, and the line with each such byte as \xNN (its line end left out)
            int end = bytes.length;
            while (end > 0 && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r')) end--;
            StringBuilder text = new StringBuilder();
            int first = -1;
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, end);
            CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
            CharBuffer out = CharBuffer.allocate(end * 2 + 2);
            while (true) {
                var result = d.decode(in, out, true);
                if (result.isError()) {
                    if (first < 0) first = in.position();
                    for (int k = 0; k < result.length(); k++) {
                        text.append(out.flip()).append(String.format("\\x%02x", bytes[in.position()] & 0xff));
                        out.clear();
                        in.position(in.position() + 1);
                    }
                    continue;
                }
                d.flush(out);
                text.append(out.flip());
                break;
            }
            return new Line(text.toString(), first);
        }
    }

    // -- words: as the Python runner writes them ------------------------------------------------

    /** An engine's exit status as a shell says it (a signal N is 128 + N, as Java reports it). */
    static String exitText(int code) {
        return "the engine ended (exit " + code + ")";
    }

    static String shownSeconds(double seconds) {
        return new BigDecimal(Double.toString(seconds)).stripTrailingZeros().toPlainString();
    }

    /**
     * A count as a report line writes it: whole up to 40 digits, else its first 20 digits and how
     * many it has: the Python runner's {@code count_text}.
     */
    static String countText(Object n) {
        String text = String.valueOf(n);
        int sign = text.startsWith("-") ? 1 : 0;
        int digits = text.length() - sign;
        return digits <= 40 ? text : text.substring(0, 20 + sign) + "… (" + digits + " digits)";
    }

    /** {@code text} cut at 120 characters, each code point that would not show as itself escaped. */
    static String shown(String text) {
        String cut = text.codePointCount(0, text.length()) <= NOISE_SHOWN
            ? text : text.substring(0, text.offsetByCodePoints(0, NOISE_SHOWN)) + "…";
        return visible(cut);
    }

    /**
     * {@code text} with every code point that would not show as itself (model/_text.py's UNSAFE,
     * the table below) written as its JSON escape: the Python runner's {@code visible}.
     */
    static String visible(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!unsafe(cp)) {
                out.appendCodePoint(cp);
            } else if (cp <= 0xffff) {
                out.append(String.format("\\u%04x", cp));
            } else {
                int c = cp - 0x10000;
                out.append(String.format("\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff)));
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** Whether {@code cp} is in {@link #UNSAFE} (Java's own Unicode data is older than Python's: never asked). */
    static boolean unsafe(int cp) {
        int lo = 0;
        int hi = UNSAFE.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (cp < UNSAFE[2 * mid]) hi = mid - 1;
            else if (cp > UNSAFE[2 * mid + 1]) lo = mid + 1;
            else return true;
        }
        return false;
    }

    // -- generated by tools/java_unsafe.py from model/_text.py UNSAFE: do not edit --
    /** Code points never shown as themselves, as pairs of first and last. */
    static final int[] UNSAFE = {
        0x0000, 0x001f, 0x007f, 0x009f, 0x00ad, 0x00ad, 0x034f, 0x034f,
        0x0600, 0x0605, 0x061c, 0x061c, 0x06dd, 0x06dd, 0x070f, 0x070f,
        0x0890, 0x0891, 0x08e2, 0x08e2, 0x115f, 0x1160, 0x17b4, 0x17b5,
        0x180b, 0x180f, 0x200b, 0x200f, 0x2028, 0x202e, 0x2060, 0x206f,
        0x3164, 0x3164, 0xd800, 0xf8ff, 0xfdd0, 0xfdef, 0xfe00, 0xfe0f,
        0xfeff, 0xfeff, 0xffa0, 0xffa0, 0xfff9, 0xfffb, 0xfffe, 0xffff,
        0x110bd, 0x110bd, 0x110cd, 0x110cd, 0x13430, 0x13438, 0x1bca0, 0x1bca3,
        0x1d173, 0x1d17a, 0x1fffe, 0x1ffff, 0x2fffe, 0x2ffff, 0x3fffe, 0x3ffff,
        0x4fffe, 0x4ffff, 0x5fffe, 0x5ffff, 0x6fffe, 0x6ffff, 0x7fffe, 0x7ffff,
        0x8fffe, 0x8ffff, 0x9fffe, 0x9ffff, 0xafffe, 0xaffff, 0xbfffe, 0xbffff,
        0xcfffe, 0xcffff, 0xdfffe, 0xe0fff, 0xefffe, 0x10ffff,
    };
    // -- end of the generated table --

    /** Python's {@code repr()} of the float a JSON number with a fraction or exponent reads as. */
    static String pyFloat(BigDecimal d) {
        double x = d.doubleValue();
        if (Double.isInfinite(x)) return x > 0 ? "Infinity" : "-Infinity"; // json.dumps of a number past the floats
        if (x == 0) return (1 / x < 0) ? "-0.0" : "0.0";
        BigDecimal v = new BigDecimal(Double.toString(x)).stripTrailingZeros();
        String digits = v.unscaledValue().abs().toString();
        int exp = digits.length() - 1 - v.scale(); // x = d.ddd × 10^exp
        String sign = x < 0 ? "-" : "";
        if (exp >= -4 && exp < 16) {
            String plain = v.abs().toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
    }

    /** Python's {@code json.dumps(value)}: ", " and ": " between items, every non-ASCII character escaped. */
    static String dumps(Object value) {
        return dumps(value, ", ", ": ");
    }

    static String dumps(Object value, String item, String key) {
        if (value == null) return "null";
        if (value instanceof Boolean b) return b ? "true" : "false";
        if (value instanceof BigInteger n) return n.toString();
        if (value instanceof BigDecimal d) return pyFloat(d);
        if (value instanceof String s) return ascii(TriggerStackClient.quote(s));
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> ascii(TriggerStackClient.quote((String) e.getKey())) + key + dumps(e.getValue(), item, key))
                .collect(Collectors.joining(item, "{", "}"));
        }
        if (value instanceof Collection<?> list) {
            return list.stream().map(v -> dumps(v, item, key)).collect(Collectors.joining(item, "[", "]"));
        }
        return value.toString();
    }

    static String ascii(String quoted) {
        StringBuilder out = new StringBuilder();
        for (char c : quoted.toCharArray()) {
            if (c <= 0x7f) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString().replace("\\u000a", "\\n").replace("\\u000d", "\\r").replace("\\u0009", "\\t")
            .replace("\\u0008", "\\b").replace("\\u000c", "\\f");
    }

    // -- answers read as values -------------------------------------------------------------------

    /**
     * A whole number — an integer, or a float with no fraction below 2^53 (2.0: JSON writers in Java
     * and JavaScript write it so) — or null: how every number compared is read (a count, an id, a code).
     */
    static BigInteger wholeNumber(Object value) {
        if (value instanceof BigInteger n) return n;
        if (value instanceof BigDecimal d) {
            BigInteger n = exactWhole(d);
            if (n != null && n.abs().compareTo(EXACT_FLOAT) < 0) return n;
        }
        return null;
    }

    /**
     * The whole number a JSON number says as written (1.0000000000000001 is none, though its nearest
     * double is 1), or null; one past a double's range is none (no JSON writer writes it).
     */
    static BigInteger exactWhole(BigDecimal d) {
        if (Double.isInfinite(d.doubleValue())) return null;
        BigDecimal s = d.stripTrailingZeros();
        return s.scale() <= 0 ? s.toBigInteger() : null;
    }

    /**
     * A number as a refusal shows it: as written where its double is another number — one past the
     * doubles, or a whole double the text is not (1e-400, 9007199254740993.0) — as the Python runner's
     * Inexact is; else as Python writes its float.
     */
    static String shownNumber(Object value) {
        if (value instanceof BigDecimal d && inexact(d)) {
            return shown(d instanceof TriggerStackClient.Written w ? w.text : d.toString());
        }
        return shown(dumps(value));
    }

    /** Whether {@code d}'s double is not the number it says: past the doubles, or whole and another number. */
    static boolean inexact(BigDecimal d) {
        double x = d.doubleValue();
        if (Double.isInfinite(x)) return true;
        return x == Math.rint(x) && new BigDecimal(x).compareTo(d) != 0;
    }

    /** A number past the doubles whose text is a whole number (1e400): a float of 2^53 or more, by its text. */
    static boolean wholePastDoubles(BigDecimal d) {
        return Double.isInfinite(d.doubleValue()) && (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0);
    }

    /** A count ({@link #wholeNumber}); anything else is Wrong, saying which {@code what} and why. */
    static BigInteger whole(Object value, String what) throws Wrong {
        BigInteger n = wholeNumber(value);
        if (n != null) return n;
        String shown = shownNumber(value);
        if (value instanceof BigDecimal d && (exactWhole(d) != null || wholePastDoubles(d))) {
            throw new Wrong(what + " " + shown + " is a float of 2^53 or more, which is not an exact count: write it as an integer");
        }
        throw new Wrong(what + " " + shown + " is not a whole number");
    }

    /** A stack entry read as a value (formats.md): its canonical form, and its text as the reports show it. */
    record Entry(String value, String text) {}

    /** A divide's first entry (null: nothing on the stack), or Wrong if it is not a stack entry. */
    static Entry entry(Object value) throws Wrong {
        if (value == null) return null;
        Entry read = readEntry(value, true);
        if (read == null) {
            throw new Wrong("a divide's first entry that is not a stack entry: " + shown(dumps(value)));
        }
        return read;
    }

    /**
     * An entry (or, with {@code top} false, a chosen mode) as the outcome format reads it: only its own
     * fields, ids as strings, targets lists of strings, divisions whole numbers; null if it is none.
     * The value ignores the order of a requirement's targets, of repeated modes and of keys, and
     * fields left at their defaults; the text is the compact JSON of the fields that are not.
     */
    static Entry readEntry(Object value, boolean top) {
        if (!(value instanceof Map<?, ?> map)) return null;
        String name = top ? "ability" : "mode";
        Set<String> fields = top ? Set.of("ability", "modes", "targets", "divide") : Set.of("mode", "targets", "divide");
        if (!fields.containsAll(map.keySet()) || !(map.get(name) instanceof String id)) return null;
        StringBuilder val = new StringBuilder(TriggerStackClient.quote(id));
        LinkedHashMap<String, Object> shown = new LinkedHashMap<>();
        shown.put(name, id);
        if (top) {
            Object modes = map.get("modes");
            if (modes != null) {
                if (!(modes instanceof List<?> list)) return null;
                List<String> values = new ArrayList<>();
                List<Object> texts = new ArrayList<>();
                for (Object m : list) {
                    Entry e = readEntry(m, false);
                    if (e == null) return null;
                    values.add(e.value());
                    texts.add(new Raw(e.text()));
                }
                values.sort(null); // a multiset
                val.append("|modes").append(values);
                shown.put("modes", texts);
            } else {
                val.append("|nomodes");
            }
        }
        Object targets = map.containsKey("targets") ? map.get("targets") : Map.of();
        if (!(targets instanceof Map<?, ?> t)) return null;
        TreeSet<String> tv = new TreeSet<>();
        for (Map.Entry<?, ?> e : t.entrySet()) {
            if (!(e.getValue() instanceof List<?> things) || !things.stream().allMatch(x -> x instanceof String)) return null;
            List<String> sorted = things.stream().map(x -> (String) x).sorted().collect(Collectors.toList());
            if (!sorted.isEmpty()) tv.add(TriggerStackClient.quote((String) e.getKey()) + sorted.stream().map(TriggerStackClient::quote).toList());
        }
        val.append("|targets").append(tv);
        if (!t.isEmpty()) shown.put("targets", t);
        Object divide = map.containsKey("divide") ? map.get("divide") : Map.of();
        if (!(divide instanceof Map<?, ?> dv)) return null;
        TreeSet<String> divided = new TreeSet<>();
        LinkedHashMap<String, Object> divShown = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : dv.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> amounts)) return null;
            TreeSet<String> av = new TreeSet<>();
            LinkedHashMap<String, Object> amountsShown = new LinkedHashMap<>();
            for (Map.Entry<?, ?> a : amounts.entrySet()) {
                BigInteger n = wholeAmount(a.getValue());
                if (n == null) return null;
                av.add(TriggerStackClient.quote((String) a.getKey()) + "=" + n);
                amountsShown.put((String) a.getKey(), n);
            }
            if (!av.isEmpty()) divided.add(TriggerStackClient.quote((String) e.getKey()) + av);
            divShown.put((String) e.getKey(), amountsShown);
        }
        val.append("|divide").append(divided);
        if (!dv.isEmpty()) shown.put("divide", divShown);
        return new Entry(val.toString(), dumps(shown, ",", ":"));
    }

    /** A text already written as JSON, kept as it is inside another. */
    record Raw(String json) {
        @Override
        public String toString() {
            return json;
        }
    }

    /** A division's amount: an integer, or a whole-number float (6.0 is 6); null otherwise. */
    static BigInteger wholeAmount(Object value) {
        if (value instanceof BigInteger n) return n;
        return value instanceof BigDecimal d ? exactWhole(d) : null;
    }

    /** An engine's divide, each first entry once (in the engine's order), as values. */
    static LinkedHashMap<String, Object[]> divide(Object answer) throws Wrong {
        if (!(answer instanceof List<?> list)) throw new Wrong("divide is not a list: " + shown(dumps(answer)));
        LinkedHashMap<String, Object[]> out = new LinkedHashMap<>();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> d) || !Set.of("first", "count").containsAll(d.keySet()) || !d.containsKey("count")) {
                throw new Wrong("a divide entry is {first, count}, not " + shown(dumps(item)));
            }
            Entry first = entry(d.get("first"));
            BigInteger n = whole(d.get("count"), "a divide count");
            String key = first == null ? "null" : first.value();
            if (out.containsKey(key)) {
                throw new Wrong("the divide lists the first entry " + shown(dumps(d.get("first"))) + " twice");
            }
            out.put(key, new Object[] {first, n});
        }
        return out;
    }

    /** Where two divides part: the first entry (in the suite's order) whose count differs. */
    static String firstDifference(LinkedHashMap<String, Object[]> expected, LinkedHashMap<String, Object[]> got) {
        for (Map.Entry<String, Object[]> e : expected.entrySet()) {
            Object[] theirs = got.get(e.getKey());
            if (theirs == null || !theirs[1].equals(e.getValue()[1])) {
                Entry first = (Entry) e.getValue()[0];
                String shown = first == null ? "nothing on the stack" : shown(first.text());
                return "under the first entry " + shown + ": the engine counts " + countText(theirs == null ? "0" : theirs[1])
                    + ", the suite " + countText(e.getValue()[1]);
            }
        }
        for (Map.Entry<String, Object[]> e : got.entrySet()) {
            if (!expected.containsKey(e.getKey())) {
                Entry first = (Entry) e.getValue()[0];
                return "the engine has a first entry the suite does not: " + (first == null ? "null" : shown(first.text()));
            }
        }
        return "the divides agree";
    }

    /** A check's answer: legal (true or false, nothing else) and the codes it names. */
    static Object[] verdict(Object answer) throws Wrong {
        if (!(answer instanceof Map<?, ?> map) || !(map.get("legal") instanceof Boolean legal)) {
            throw new Wrong("a verdict is {legal: true or false, violations: [...]}, not " + shown(dumps(answer)));
        }
        Object violations = map.containsKey("violations") ? map.get("violations") : List.of();
        if (!(violations instanceof List<?> list) || !list.stream().allMatch(v -> v instanceof Map<?, ?>)) {
            throw new Wrong("violations is not a list of objects: " + shown(dumps(violations)));
        }
        TreeSet<String> codes = new TreeSet<>(BY_CODE_POINT);
        for (Object v : list) { // each violation's code, a string; one without (or with null) names none
            Object code = ((Map<?, ?>) v).get("code");
            if (code == null) continue;
            if (!(code instanceof String name) || name.isEmpty()) {
                throw new Wrong("a violation's code is the name of a code, not " + shown(dumps(code)));
            }
            codes.add(name);
        }
        return new Object[] {legal, codes};
    }

    /** Text in Python's order (by code point; Java's own compares UTF-16 units, which differs past U+FFFF). */
    static final Comparator<String> BY_CODE_POINT = (a, b) -> Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());

    // -- one case -----------------------------------------------------------------------------------

    /** The first difference of one case, or null when it passes. */
    @SuppressWarnings("unchecked")
    static String runCase(Engine engine, Map<String, Object> c) {
        String handle;
        Object handleValue = null;
        try {
            Object loaded = engine.call("load", "{\"scenario\":" + TriggerStackClient.toJson(c.get("scenario")) + "}");
            handleValue = loaded instanceof Map<?, ?> m ? m.get("handle") : null;
            if (!(handleValue instanceof String h)) {
                return "load: no handle in " + shown(dumps(loaded));
            }
            handle = h;
        } catch (Failure e) {
            return "load: " + e.getMessage();
        }
        try {
            String asked = "{\"handle\":" + TriggerStackClient.quote(handle);
            LinkedHashMap<String, Object[]> divide = null;
            Object answer;
            if (engine.divideSupported) {
                try {
                    answer = engine.call("count", asked + ",\"divide\":true}");
                    if (answer instanceof Map<?, ?> m && m.get("divide") != null) divide = divide(m.get("divide"));
                } catch (Failure e) {
                    if (e.code == null || (e.code != -32601 && e.code != -32602)) throw e;
                    engine.divideSupported = false;
                    answer = engine.call("count", asked + "}");
                }
            } else {
                answer = engine.call("count", asked + "}");
            }
            Object raw = answer instanceof Map<?, ?> m ? m.get("count") : answer;
            BigInteger got = whole(raw, "count");
            LinkedHashMap<String, Object[]> expected = new LinkedHashMap<>();
            for (Object d : (List<Object>) c.get("divide")) {
                Map<String, Object> dm = (Map<String, Object>) d;
                Entry first = entry(dm.get("first"));
                expected.put(first == null ? "null" : first.value(), new Object[] {first, dm.get("count")});
            }
            if (!got.equals(c.get("count"))) {
                String where = divide != null ? firstDifference(expected, divide) : "no divide to say where";
                return "count " + countText(got) + ", the suite " + countText(c.get("count")) + "; " + where;
            }
            if (divide != null && !sameDivide(expected, divide)) {
                return "the counts agree, the divides do not: " + firstDifference(expected, divide);
            }
            int i = 1;
            for (Object proposal : (List<Object>) c.get("legal")) {
                Object[] v = verdict(engine.call("check", asked + ",\"proposal\":" + TriggerStackClient.toJson(proposal) + "}"));
                if (!(Boolean) v[0]) return "legal proposal " + i + " judged illegal (" + String.join(", ", (TreeSet<String>) v[1]) + ")";
                i++;
            }
            i = 1;
            for (Object item : (List<Object>) c.get("illegal")) {
                Map<String, Object> wrong = (Map<String, Object>) item;
                List<String> codes = (List<String>) (List<?>) wrong.get("codes");
                Object[] v = verdict(engine.call("check", asked + ",\"proposal\":" + TriggerStackClient.toJson(wrong.get("proposal")) + "}"));
                if ((Boolean) v[0]) return "illegal proposal " + i + " judged legal (it breaks " + String.join(", ", codes) + ")";
                TreeSet<String> said = (TreeSet<String>) v[1];
                if (!said.isEmpty() && !said.equals(Set.copyOf(codes))) { // the suite's codes said as listed, sorted
                    return "illegal proposal " + i + ": the engine names " + String.join(", ", said) + ", the suite "
                        + codes.stream().sorted(BY_CODE_POINT).collect(Collectors.joining(", "));
                }
                i++;
            }
            return null;
        } catch (Failure | Wrong e) {
            return e.getMessage();
        } finally {
            try { // an engine without unload keeps its scenarios: the protocol allows it
                engine.call("unload", "{\"handle\":" + TriggerStackClient.toJson(handleValue) + "}");
            } catch (Failure e) {
                // ignored, as docs/conformance.md says
            }
        }
    }

    static boolean sameDivide(LinkedHashMap<String, Object[]> a, LinkedHashMap<String, Object[]> b) {
        if (!a.keySet().equals(b.keySet())) return false;
        for (String k : a.keySet()) {
            if (!a.get(k)[1].equals(b.get(k)[1])) return false;
        }
        return true;
    }

    // -- the suite's files ----------------------------------------------------------------------------

    static boolean isCount(Object value, int least) {
        return value instanceof BigInteger n && n.compareTo(BigInteger.valueOf(least)) >= 0;
    }

    /** A case's keys (conformance/schema.json {@code properties}; {@code additionalProperties} is false). */
    static final List<String> KEYS = List.of("version", "id", "source", "peer_issues", "checks", "scenario", "count", "divide",
        "legal", "illegal");

    static boolean texts(Object value, int least) {
        return value instanceof List<?> list && list.size() >= least && list.stream().allMatch(t -> t instanceof String);
    }

    /** The first key of {@code value} (by code point) that is none of {@code keys}, said at {@code place}; or "". */
    static String stranger(Map<?, ?> value, List<String> keys, String place) {
        return value.keySet().stream().map(k -> (String) k).filter(k -> !keys.contains(k)).sorted(BY_CODE_POINT).findFirst()
            .map(k -> place + k + ": a key no case has (conformance/schema.json)").orElse("");
    }

    /** What of conformance/schema.json {@code data} breaks, at its place, or "": the whole case read
     *  strictly, in the Python runner's words ({@code solver/conformance/__init__.py}, {@code _not_a_case}). */
    static String notACase(Object data) {
        if (!(data instanceof Map<?, ?> c)) return "a case is an object";
        String wrong = stranger(c, KEYS, "");
        if (!wrong.isEmpty()) return wrong;
        if (!"1".equals(c.get("version"))) return "version: \"1\" (the case format's version)";
        if (!(c.get("id") instanceof String id) || id.isEmpty()) return "id: a string (the case's name in the report)";
        if (!(c.get("source") instanceof String source) || source.isEmpty()) return "source: a text (what the case restates)";
        if (c.containsKey("peer_issues") && !texts(c.get("peer_issues"), 0)) return "peer_issues: a list of texts";
        if (!texts(c.get("checks"), 1)) return "checks: a list of the rules checked, at least one";
        if (!(c.get("scenario") instanceof Map<?, ?>)) return "scenario: an object";
        if (!isCount(c.get("count"), 0)) return "count: a whole number";
        if (!(c.get("divide") instanceof List<?> divide)) return "divide: a list of {first: entry or null, count: N}";
        for (int i = 0; i < divide.size(); i++) {
            Object d = divide.get(i);
            if (d instanceof Map<?, ?> m && !(wrong = stranger(m, List.of("first", "count"), "divide[" + i + "].")).isEmpty()) {
                return wrong;
            }
            if (!(d instanceof Map<?, ?> m && m.containsKey("first") && (m.get("first") == null || m.get("first") instanceof Map<?, ?>))) {
                return "divide: a list of {first: entry or null, count: N}";
            }
            if (!isCount(m.get("count"), 1)) return "divide[" + i + "].count: a whole number, at least 1";
        }
        if (!(c.get("legal") instanceof List<?> legal) || !legal.stream().allMatch(p -> p instanceof Map<?, ?>)) {
            return "legal: a list of proposals";
        }
        if (!(c.get("illegal") instanceof List<?> illegal)) return "illegal: a list of {proposal, codes, rules}";
        for (int i = 0; i < illegal.size(); i++) {
            Object w = illegal.get(i);
            if (w instanceof Map<?, ?> m && !(wrong = stranger(m, List.of("proposal", "codes", "rules"), "illegal[" + i + "].")).isEmpty()) {
                return wrong;
            }
            if (!(w instanceof Map<?, ?> m && m.get("proposal") instanceof Map<?, ?> && texts(m.get("codes"), 1))) {
                return "illegal: a list of {proposal, codes, rules}";
            }
            if (!texts(m.get("rules"), 0)) return "illegal[" + i + "].rules: a list of texts";
        }
        return "";
    }

    // -- the run ------------------------------------------------------------------------------------

    public static void main(String[] args) throws IOException {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /**
     * The command line {@code args} run: every case's line, the noise line and the summary on
     * {@code out}, every line (and every line on {@code err}) escaped by {@link #visible} as the Python
     * runner's {@code shown_lines} writes them; the exit code returned (0 every case passes, 1 some
     * fail, 2 bad usage). Runs share nothing, so several may go at once (tests/doubles/RunnerTable.java).
     */
    @SuppressWarnings("unchecked")
    public static int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        List<String> rest = args;
        double seconds = 60;
        if (rest.size() >= 2 && rest.get(0).equals("--time-limit")) {
            try {
                seconds = Double.parseDouble(rest.get(1));
            } catch (NumberFormatException e) {
                seconds = -1;
            }
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                err.println(visible("--time-limit: a number of seconds above 0, not " + rest.get(1)));
                return 2;
            }
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty()) {
            err.println(visible("usage: ConformanceRunner [--time-limit SECONDS] CASES_DIR [ENGINE COMMAND...]"));
            return 2;
        }
        Path suite = Path.of(rest.get(0));
        List<String> command = rest.size() > 1 ? rest.subList(1, rest.size()) : List.of("triggerstack", "serve", "--stdio");
        List<Path> files;
        Comparator<Path> byParts = (a, b) -> { // as Python sorts paths: part by part
            for (int k = 0; k < Math.min(a.getNameCount(), b.getNameCount()); k++) {
                int d = a.getName(k).toString().compareTo(b.getName(k).toString());
                if (d != 0) return d;
            }
            return Integer.compare(a.getNameCount(), b.getNameCount());
        };
        if (!Files.isDirectory(suite)) {
            err.println(visible("--suite: " + suite + " is not a folder of cases"));
            return 2;
        }
        try (Stream<Path> walk = Files.walk(suite)) {
            files = walk.filter(p -> p.toString().endsWith(".json") && Files.isRegularFile(p)).sorted(byParts).collect(Collectors.toList());
        }
        List<Map<String, Object>> cases = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Path> named = new LinkedHashMap<>(); // each case's id, and the file that gave it first
        for (Path file : files) { // every file read and checked before the engine starts, as the Python runner does
            try {
                if (Files.size(file) > MAX_BYTES) { // a case file is held to the same document limit as an answer
                    problems.add(file + ": more than " + MAX_BYTES + " bytes");
                    continue;
                }
                Object data = TriggerStackClient.parse(Files.readString(file, StandardCharsets.UTF_8));
                String wrong = notACase(data);
                Path first = wrong.isEmpty() ? named.putIfAbsent((String) ((Map<String, Object>) data).get("id"), file) : null;
                if (first != null) { // the report names a case by its id: two alike, and a FAIL names neither
                    wrong = "id: the same as " + first + "'s (the report names each case by its id)";
                }
                if (wrong.isEmpty()) cases.add((Map<String, Object>) data);
                else problems.add(file + ": not a case of the suite: " + wrong);
            } catch (TriggerStackClient.JsonError e) {
                problems.add(file + ": malformed JSON: " + e.getMessage());
            } catch (IOException e) { // unreadable, or not UTF-8
                problems.add(file + ": cannot read: " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            List<String> shown = new ArrayList<>(problems.subList(0, Math.min(10, problems.size())));
            if (problems.size() > 10) shown.add("\u2026 and " + (problems.size() - 10) + " more");
            err.println(visible("--suite: " + String.join("; ", shown)));
            return 2;
        }
        if (cases.isEmpty()) {
            err.println(visible("--suite: " + suite + " holds no case (*.json)"));
            return 2;
        }
        List<String> lines = new ArrayList<>();
        int passed = 0;
        Engine started;
        try {
            started = new Engine(command, seconds);
        } catch (IOException e) {
            err.println(visible("cannot start " + command.get(0) + ": " + e.getMessage()));
            return 2;
        }
        try (Engine engine = started) {
            for (Map<String, Object> c : cases) {
                String difference = runCase(engine, c);
                passed += difference == null ? 1 : 0;
                lines.add((difference == null ? "pass " : "FAIL ") + c.get("id") + (difference == null ? "" : ": " + difference));
            }
            if (!engine.noise.isEmpty()) {
                lines.add("the engine wrote " + engine.noise.size() + " line(s) that answer no request (skipped); the first: "
                    + engine.noise.get(0));
            }
            String note = engine.divideSupported ? "" : " (the engine has no divide: counts compared whole)";
            lines.add(passed + " of " + cases.size() + " cases pass" + note);
        }
        for (String line : lines) out.println(visible(line)); // every line of terminal text, as shown_lines writes it
        return passed == cases.size() ? 0 : 1;
    }
}
