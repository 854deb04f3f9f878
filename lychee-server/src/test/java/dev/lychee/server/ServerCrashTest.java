package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.server.auth.ApiKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a real server process ({@code ServerMain serve}: SQLite file, ONNX embedder) while
 * four clients add turns; after a restart on the same file, every turn that got a 2xx is present
 * exactly once.
 */
@Timeout(300)
class ServerCrashTest {
  static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  static final String KEY = "crash-test-secret";
  static final int WRITERS = 4;
  static final int KILL_AFTER = 40;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedTurnSurvivesSigkillOnce() throws Exception {
    Path db = dir.resolve("crash.db");
    Path keys = dir.resolve("keys.json");
    Files.writeString(keys, "{\"keys\":[{\"id\":\"crash\",\"sha256\":\"" + ApiKeys.sha256Hex(KEY)
        + "\",\"namespaces\":[\"crash\"],\"right\":\"admin\"}]}");
    Started first = start(db, keys);
    Map<String, Set<Integer>> acked = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch enough = new CountDownLatch(KILL_AFTER);
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      String session = "w" + w;
      acked.put(session, ConcurrentHashMap.newKeySet());
      Thread t = new Thread(() -> {
        Http http = new Http(first.url);
        for (int i = 0; i < 10_000 && !stop.get(); i++) {
          try {
            Http.Res r = http.post("/v1/namespaces/crash/sessions/" + session + "/turns", KEY,
                "{\"turns\":[{\"speaker\":\"Lee\",\"index\":" + i + ",\"text\":\"Lee wrote line " + i + " of " + session + ".\"}]}");
            if (r.status() / 100 == 2) {
              acked.get(session).add(i);
              enough.countDown();
            }
          } catch (RuntimeException e) {
            return; // the server is gone
          }
        }
      });
      writers.add(t);
      t.start();
    }
    assertThat(enough.await(180, TimeUnit.SECONDS)).as("writers got %d acknowledgements", KILL_AFTER).isTrue();
    first.process.destroyForcibly(); // SIGKILL on Linux
    assertThat(first.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    stop.set(true);
    for (Thread t : writers) {
      t.join(30_000);
    }
    Started second = start(db, keys);
    try {
      Http http = new Http(second.url);
      int total = 0;
      for (var e : acked.entrySet()) {
        Http.Res r = http.get("/v1/namespaces/crash/sessions/" + e.getKey() + "/turns?limit=500", KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<Integer> stored = r.json().get("items").findValues("index").stream().map(n -> n.asInt()).toList();
        assertThat(stored).doesNotHaveDuplicates().containsAll(e.getValue());
        total += e.getValue().size();
      }
      assertThat(total).isGreaterThanOrEqualTo(KILL_AFTER);
    } finally {
      second.process.destroy();
      second.process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  record Started(Process process, String url) {}

  private static Started start(Path db, Path keys) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-cp", System.getProperty("java.class.path"), "dev.lychee.server.boot.ServerMain", "serve",
        "--port", "0", "--db", db.toString(), "--keys", keys.toString());
    pb.redirectErrorStream(true);
    pb.environment().remove("LYCHEE_LLM");
    Process p = pb.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String url = null;
    StringBuilder seen = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String line;
    while (url == null && System.nanoTime() < deadline && (line = out.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
    }
    if (url == null) {
      p.destroyForcibly();
      throw new AssertionError("the server did not start:\n" + seen);
    }
    Thread drain = new Thread(() -> {
      try {
        while (out.readLine() != null) {
          // keep the pipe empty so the child never blocks on logging
        }
      } catch (IOException ignored) {
        // the child is gone
      }
    });
    drain.setDaemon(true);
    drain.start();
    return new Started(p, url);
  }
}
