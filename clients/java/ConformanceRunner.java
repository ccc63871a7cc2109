/*
 * The 603.3 conformance suite, run from the JVM (docs/conformance.md): every case of
 * conformance/cases put to an engine over the suite's JSON-RPC protocol — load the scenario, count
 * it with divide, check each legal and illegal proposal — with the first difference of each failing
 * case, perft-style (under which first stack entry the counts part).
 *
 *   javac -d out clients/java/TriggerStackClient.java clients/java/ConformanceRunner.java
 *   java -cp out ConformanceRunner conformance/cases [ENGINE COMMAND...]
 *
 * The engine command defaults to `triggerstack serve --stdio`. A Java engine plugs in by speaking
 * the same three methods on its standard input and output — or, in process, by replacing
 * TriggerStackClient.call with calls into the engine (the method `call` is all this runner uses).
 */

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class ConformanceRunner {
    private ConformanceRunner() {}

    /** JSON text with every object's keys sorted: two equal entries print alike. */
    static String canon(Object value) {
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) sorted.put((String) e.getKey(), e.getValue());
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (out.length() > 1) out.append(',');
                out.append(TriggerStackClient.quote(e.getKey())).append(':').append(canon(e.getValue()));
            }
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ConformanceRunner::canon).collect(Collectors.joining(",", "[", "]"));
        }
        return TriggerStackClient.toJson(value);
    }

    @SuppressWarnings("unchecked")
    static Map<String, BigInteger> divide(Object entries) {
        TreeMap<String, BigInteger> out = new TreeMap<>();
        for (Object e : (List<Object>) entries) {
            Map<String, Object> d = (Map<String, Object>) e;
            out.put(canon(d.get("first")), (BigInteger) d.get("count"));
        }
        return out;
    }

    /** The first difference of one case, or null when it passes. */
    @SuppressWarnings("unchecked")
    static String runCase(TriggerStackClient client, Map<String, Object> c) throws IOException {
        String handle = (String) ((Map<String, Object>) client.call(
            "load", "{\"scenario\":" + TriggerStackClient.toJson(c.get("scenario")) + "}")).get("handle");
        try {
            Map<String, Object> counted = (Map<String, Object>) client.call(
                "count", "{\"handle\":" + TriggerStackClient.quote(handle) + ",\"divide\":true}");
            BigInteger count = (BigInteger) counted.get("count");
            Map<String, BigInteger> expected = divide(c.get("divide"));
            Map<String, BigInteger> got = divide(counted.get("divide"));
            if (!count.equals(c.get("count")) || !got.equals(expected)) {
                for (Map.Entry<String, BigInteger> e : expected.entrySet()) {
                    BigInteger theirs = got.getOrDefault(e.getKey(), BigInteger.ZERO);
                    if (!theirs.equals(e.getValue())) {
                        return "count " + count + ", the suite " + c.get("count") + "; under the first entry "
                            + e.getKey() + ": the engine counts " + theirs + ", the suite " + e.getValue();
                    }
                }
                return "count " + count + ", the suite " + c.get("count") + "; the engine has a first entry the suite does not";
            }
            int i = 0;
            for (Object proposal : (List<Object>) c.get("legal")) {
                Map<String, Object> verdict = client.check(handle, TriggerStackClient.toJson(proposal));
                if (!Boolean.TRUE.equals(verdict.get("legal"))) return "legal proposal " + i + " judged illegal";
                i++;
            }
            i = 0;
            for (Object item : (List<Object>) c.get("illegal")) {
                Map<String, Object> wrong = (Map<String, Object>) item;
                Map<String, Object> verdict = client.check(handle, TriggerStackClient.toJson(wrong.get("proposal")));
                if (Boolean.TRUE.equals(verdict.get("legal"))) return "illegal proposal " + i + " judged legal";
                Set<String> codes = new TreeSet<>();
                for (Object v : (List<Object>) verdict.get("violations")) codes.add((String) ((Map<String, Object>) v).get("code"));
                Set<String> want = new TreeSet<>();
                for (Object code : (List<Object>) wrong.get("codes")) want.add((String) code);
                if (!codes.equals(want)) return "illegal proposal " + i + ": codes " + codes + ", the suite " + want;
                i++;
            }
            return null;
        } finally {
            client.call("unload", "{\"handle\":" + TriggerStackClient.quote(handle) + "}");
        }
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ConformanceRunner CASES_DIR [ENGINE COMMAND...]");
            System.exit(2);
        }
        Path suite = Path.of(args[0]);
        List<String> command = args.length > 1
            ? Arrays.asList(args).subList(1, args.length)
            : List.of("triggerstack", "serve", "--stdio");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(suite)) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toCollection(ArrayList::new));
        }
        int passed = 0;
        try (TriggerStackClient client = new TriggerStackClient(command)) {
            for (Path file : files) {
                Map<String, Object> c = (Map<String, Object>) TriggerStackClient.parse(Files.readString(file, StandardCharsets.UTF_8));
                String difference;
                try {
                    difference = runCase(client, c);
                } catch (TriggerStackClient.RpcException e) {
                    difference = "error " + e.code + ": " + e.getMessage();
                }
                if (difference == null) {
                    passed++;
                } else {
                    System.out.println("FAIL " + c.get("id") + ": " + difference);
                }
            }
        }
        System.out.println(passed + " of " + files.size() + " cases pass");
        System.exit(passed == files.size() ? 0 : 1);
    }
}
