package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.server.auth.ApiKey;
import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.Right;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Eight clients at once, each mixing ingest and recall against four namespaces (two clients per
 * namespace, one session each), for a fixed number of requests: no 5xx, exact turn counts after
 * (re-sent indices included), and no recall result from another namespace.
 */
@Timeout(300)
class ConcurrentClientsTest {
  static final int CLIENTS = 8;
  static final int TURNS_PER_CLIENT = 20;

  @Test
  void eightClientsMixingIngestAndRecall() throws Exception {
    List<ApiKey> keys = new ArrayList<>();
    for (int n = 0; n < CLIENTS / 2; n++) {
      keys.add(TestServer.key("n" + n, "secret-n" + n, Right.WRITE, null, "load" + n));
    }
    try (TestServer s = TestServer.start(ServerConfig.builder().port(0).keys(ApiKeys.of(keys)).build())) {
      AtomicInteger serverErrors = new AtomicInteger();
      AtomicInteger leaks = new AtomicInteger();
      AtomicInteger recalls = new AtomicInteger();
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        int ns = c / 2;
        done.add(pool.submit(() -> {
          Http http = new Http(s.server.baseUrl());
          go.await();
          for (int i = 0; i < TURNS_PER_CLIENT; i++) {
            String body = "{\"turns\":[{\"speaker\":\"Kim\",\"index\":" + i + ",\"text\":\"Kim stored item " + i
                + " with tag qq" + ns + "z for client " + client + ".\"}]" + (i == TURNS_PER_CLIENT - 1 ? ",\"flush\":true" : "") + "}";
            Http.Res w = http.post("/v1/namespaces/load" + ns + "/sessions/c" + client + "/turns", "secret-n" + ns, body);
            if (w.status() >= 500) {
              serverErrors.incrementAndGet();
            }
            if (i % 5 == 4) { // a retry of the same turn: must not be stored twice
              http.post("/v1/namespaces/load" + ns + "/sessions/c" + client + "/turns", "secret-n" + ns, body);
            }
            Http.Res r = http.post("/v1/namespaces/load" + ns + "/recall", "secret-n" + ns, "{\"question\":\"Which item has the tag?\",\"k\":10}");
            if (r.status() >= 500) {
              serverErrors.incrementAndGet();
            }
            if (r.status() == 200) {
              recalls.incrementAndGet();
              for (JsonNode e : r.json().get("evidence")) {
                String text = e.get("text").asText();
                for (int other = 0; other < CLIENTS / 2; other++) {
                  if (other != ns && text.contains("qq" + other + "z")) {
                    leaks.incrementAndGet();
                  }
                }
              }
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      assertThat(serverErrors).hasValue(0);
      assertThat(leaks).hasValue(0);
      assertThat(recalls.get()).isEqualTo(CLIENTS * TURNS_PER_CLIENT);
      for (int ns = 0; ns < CLIENTS / 2; ns++) {
        assertThat(s.memory.store().countTurns("load" + ns)).isEqualTo(2L * TURNS_PER_CLIENT);
        for (int c = ns * 2; c < ns * 2 + 2; c++) {
          assertThat(s.memory.store().turns("load" + ns, "c" + c)).extracting(t -> t.index())
              .containsExactlyElementsOf(java.util.stream.IntStream.range(0, TURNS_PER_CLIENT).boxed().toList());
        }
      }
    }
  }
}
