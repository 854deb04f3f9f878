package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Restarts PostgreSQL while two writers append: calls either succeed (retried across the restart)
 * or fail with a {@link PostgresStoreException}, and every acknowledged turn is stored exactly once
 * under the index it was acknowledged with.
 */
class ServerRestartTest {
  private static final int BATCHES = 60;

  @Test
  @Timeout(240)
  void aRestartDuringWritesLosesNoAcknowledgedTurnAndDuplicatesNone() throws Exception {
    TestPostgres server = TestPostgres.get();
    assumeTrue(server.owned(), "LYCHEE_PG_URL points at a server the tests must not restart");
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(4)
        .retryFor(Duration.ofSeconds(90)).connectTimeout(Duration.ofSeconds(2)).build();
    try (PostgresRecordStore store = TestPostgres.rawStore(server.url(), config)) {
      Map<Integer, String> acked = new ConcurrentHashMap<>();
      ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<String> clearFailures = new ConcurrentLinkedQueue<>();
      CountDownLatch halfway = new CountDownLatch(2);
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        String name = "w" + w;
        writers.add(new Thread(() -> {
          for (int b = 0; b < BATCHES; b++) {
            if (b == BATCHES / 3) {
              halfway.countDown();
            }
            List<Turn> batch = List.of(new Turn(Role.USER, name, name + " batch " + b + " first", -1, null),
                new Turn(Role.USER, name, name + " batch " + b + " second", -1, null));
            try {
              for (RawTurn t : store.appendAssigning("ns", "s", batch)) {
                acked.put(t.index(), t.text());
              }
            } catch (PostgresStoreException e) {
              clearFailures.add(e.getMessage());
            } catch (Throwable t) {
              unexpected.add(t);
            }
          }
        }));
      }
      writers.forEach(Thread::start);
      assertThat(halfway.await(60, TimeUnit.SECONDS)).isTrue();
      server.restart();
      for (Thread t : writers) {
        t.join(TimeUnit.SECONDS.toMillis(150));
      }
      assertThat(unexpected).isEmpty();
      assertThat(clearFailures).allSatisfy(m -> assertThat(m).contains("PostgreSQL at postgresql://127.0.0.1"));

      List<RawTurn> stored = store.turns("ns", "s");
      Set<String> texts = new HashSet<>();
      for (int i = 0; i < stored.size(); i++) {
        assertThat(stored.get(i).index()).as("no gap").isEqualTo(i);
        assertThat(texts.add(stored.get(i).text())).as("no duplicate: %s", stored.get(i).text()).isTrue();
      }
      acked.forEach((index, text) -> assertThat(stored.get(index).text()).isEqualTo(text));
      // retries rode out the restart, so (with a 90 s window) nothing failed at all
      assertThat(clearFailures).isEmpty();
      assertThat(acked).hasSize(2 * BATCHES * 2);
    }
  }
}
