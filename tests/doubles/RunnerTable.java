/*
 * Many runs of the Java conformance runner in one JVM, at once (tests/test_runner_parity.py): a JVM
 * per run would cost the table ~0.3 s of CPU each, and a run that waits out its time limit would
 * hold up the next.
 *
 *   java -cp OUT RunnerTable < runs
 *
 * Each line read is a JSON object {"name": NAME, "args": [ARG, ...]}: ConformanceRunner's command
 * line. Each line written, as its run ends, is {"name": NAME, "code": EXIT, "out": TEXT, "err": TEXT}:
 * what ConformanceRunner.run returned and printed (main prints the same and exits with the code).
 */

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

public final class RunnerTable {
    private RunnerTable() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6); // most of a run is waiting on its engine
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream said = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> run = (Map<String, Object>) TriggerStackClient.parse(line);
            pool.submit(() -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code;
                try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                     PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                    try {
                        code = ConformanceRunner.run((List<String>) run.get("args"), o, e);
                    } catch (Exception | Error x) { // said, as a crash of the runner would be
                        x.printStackTrace(e);
                        code = 70;
                    }
                }
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("name", run.get("name"));
                result.put("code", code);
                result.put("out", out.toString(StandardCharsets.UTF_8));
                result.put("err", err.toString(StandardCharsets.UTF_8));
                synchronized (said) {
                    said.println(TriggerStackClient.toJson(result));
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.HOURS);
    }
}
