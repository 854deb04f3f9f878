package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The bounds on a call whose server stops answering (review round twenty-six, F9): a statement in
 * flight when its server process stops, a lock held by a transaction that never ends, and a
 * statement that runs too long each fail the call with a {@link PostgresStoreException} instead of
 * hanging it; migrations run without those bounds. The calls run on another thread only so that a
 * regression fails the test instead of hanging the build (the bound there is no timing claim).
 */
class TimeoutsTest {
  /** Far above every bound configured below: reached only when a call hangs. */
  private static final Duration HANG = Duration.ofSeconds(90);

  private static PostgresStoreConfig.Builder quick() {
    return PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2)
        .connectTimeout(Duration.ofSeconds(2)).retryFor(Duration.ZERO);
  }

  /**
   * SIGSTOP of the backend serving the call, between two statements of one callback: the server
   * side of the connection is alive for the kernel (no reset, no FIN) but never answers, as a
   * frozen host or a failover without a reset looks. Without a socket timeout the driver's read
   * blocks for good.
   */
  @Test
  void aStatementWhoseServerStopsAnsweringFailsWithAPostgresStoreException() throws Exception {
    TestPostgres server = TestPostgres.get();
    assumeTrue(server.owned(), "stopping a server process needs the tests' own server");
    PostgresDatabase db = PostgresDatabase.open(server.url(),
        quick().socketTimeout(Duration.ofSeconds(1)).statementTimeout(Duration.ofMillis(500)).build());
    db.acquire();
    List<Long> stopped = new CopyOnWriteArrayList<>();
    try {
      Throwable failure = failureOf(() -> db.read(h -> {
        long pid = h.createQuery("SELECT pg_backend_pid()").mapTo(Long.class).one();
        signal("STOP", pid);
        stopped.add(pid);
        return h.createQuery("SELECT 1").mapTo(Integer.class).one();
      }));
      assertThat(stopped).as("the backend was stopped").isNotEmpty();
      assertThat(failure).isInstanceOf(PostgresStoreException.class)
          .hasMessageContaining("PostgreSQL at postgresql://127.0.0.1");
      // the pool dropped the dead connection: the next call gets a live one
      int two = db.read(h -> h.createQuery("SELECT 2").mapTo(Integer.class).one());
      assertThat(two).isEqualTo(2);
    } finally {
      for (long pid : stopped) {
        signal("CONT", pid);
      }
      db.release();
    }
  }

  /**
   * Another instance's transaction holds the session's row and never ends (its host froze between
   * two statements): the append waits for the lock, and without a lock timeout it waits for good.
   */
  @Test
  void anAppendBehindALockThatIsNeverReleasedFailsWithAPostgresStoreException() throws Exception {
    PostgresStoreConfig config = quick().lockTimeout(Duration.ofMillis(300)).retryFor(Duration.ofMillis(700)).build();
    try (PostgresRecordStore store = TestPostgres.rawStore(TestPostgres.get().url(), config);
        Connection holder = TestPostgres.get().connect()) {
      store.appendAssigning("ns", "s", List.of(new Turn(Role.USER, "amy", "first", -1, null)));
      holder.setAutoCommit(false);
      try (Statement st = holder.createStatement()) {
        st.execute("SELECT 1 FROM " + config.schema() + ".sessions WHERE namespace = 'ns' AND session = 's' FOR UPDATE");
        Throwable failure = failureOf(
            () -> store.appendAssigning("ns", "s", List.of(new Turn(Role.USER, "amy", "second", -1, null))));
        assertThat(failure).isInstanceOf(PostgresStoreException.class).hasMessageContaining("lock timeout");
      } finally {
        holder.rollback();
      }
      // once the holder is gone the same append goes through
      assertThat(store.appendAssigning("ns", "s", List.of(new Turn(Role.USER, "amy", "second", -1, null))))
          .singleElement().satisfies(t -> assertThat(t.index()).isEqualTo(1));
    }
  }

  @Test
  void aStatementPastTheStatementTimeoutFailsWithAPostgresStoreExceptionNamingIt() throws Exception {
    PostgresDatabase db = PostgresDatabase.open(TestPostgres.get().url(),
        quick().statementTimeout(Duration.ofMillis(300)).retryFor(Duration.ofSeconds(5)).build());
    db.acquire();
    try {
      Throwable failure = failureOf(() -> db.read(h -> h.createQuery("SELECT 1 FROM pg_sleep(30)").mapTo(Integer.class).one()));
      assertThat(failure).isInstanceOf(PostgresStoreException.class).hasMessageContaining("statementTimeout (300 ms)")
          .hasMessageContaining("postgresql://");
    } finally {
      db.release();
    }
  }

  /**
   * A migration longer than every bound (a slow table rewrite stands for it) still runs: the
   * migration's transaction lifts the statement, lock and socket timeouts. The connection that ran
   * it gets them back (the pool has one connection, so the read after it uses the same one).
   */
  @Test
  void migrationsRunWithoutTheTimeoutsAndTheCallsAfterThemHaveThem() throws Exception {
    PostgresStoreConfig config = quick().maxPoolSize(1).statementTimeout(Duration.ofMillis(400))
        .lockTimeout(Duration.ofMillis(400)).socketTimeout(Duration.ofSeconds(1)).build();
    List<SchemaMigrations.Migration> all = new java.util.ArrayList<>(List.of(SchemaMigrations.V1, SchemaMigrations.V2,
        SchemaMigrations.V3, SchemaMigrations.V4, SchemaMigrations.V5, SchemaMigrations.V6, SchemaMigrations.V7,
        SchemaMigrations.V8, SchemaMigrations.V9));
    int next = SchemaMigrations.standard().latestVersion() + 1;
    assertThat(next).as("every migration of this release is in the list above").isEqualTo(all.size() + 1);
    all.add(new SchemaMigrations.Migration(next, "slow", List.of("DO $$ BEGIN PERFORM pg_sleep(2); END $$")));
    PostgresDatabase db = PostgresDatabase.open(TestPostgres.get().url(), config, new SchemaMigrations(all));
    db.acquire();
    try {
      int version = db.read(SchemaMigrations::currentVersion);
      assertThat(version).isEqualTo(next);
      assertThat(failureOf(() -> db.read(h -> h.createQuery("SELECT 1 FROM pg_sleep(2)").mapTo(Integer.class).one())))
          .isInstanceOf(PostgresStoreException.class).hasMessageContaining("statementTimeout");
      // and the socket timeout is back too: a stopped backend fails the read (with its own server only)
      if (TestPostgres.get().owned()) {
        List<Long> stopped = new CopyOnWriteArrayList<>();
        try {
          assertThat(failureOf(() -> db.read(h -> {
            long pid = h.createQuery("SELECT pg_backend_pid()").mapTo(Long.class).one();
            signal("STOP", pid);
            stopped.add(pid);
            return h.createQuery("SELECT 1").mapTo(Integer.class).one();
          }))).isInstanceOf(PostgresStoreException.class);
        } finally {
          for (long pid : stopped) {
            signal("CONT", pid);
          }
        }
      }
    } finally {
      db.release();
    }
  }

  @Test
  void badTimeoutsAreRefusedWithTheirName() {
    assertThatThrownBy(() -> PostgresStoreConfig.builder().statementTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("statementTimeout");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().lockTimeout(Duration.ofDays(30)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lockTimeout");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().lockTimeout(Duration.ofNanos(10)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lockTimeout");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().socketTimeout(null).build())
        .isInstanceOf(NullPointerException.class).hasMessageContaining("socketTimeout");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("socketTimeout").hasMessageContaining("statementTimeout");
    // zero turns a bound off; without a statement timeout any socket timeout goes
    PostgresStoreConfig off = PostgresStoreConfig.builder().statementTimeout(Duration.ZERO).lockTimeout(Duration.ZERO)
        .socketTimeout(Duration.ofSeconds(5)).tcpKeepAlive(false).build();
    assertThat(off.toString()).contains("statementTimeout=PT0S").contains("socketTimeout=PT5S").contains("tcpKeepAlive=false");
    PostgresStoreConfig defaults = PostgresStoreConfig.defaults();
    assertThat(List.of(defaults.socketTimeout(), defaults.statementTimeout(), defaults.lockTimeout()))
        .containsExactly(Duration.ofSeconds(120), Duration.ofSeconds(60), Duration.ofSeconds(30));
    assertThat(defaults.tcpKeepAlive()).isTrue();
  }

  /** What {@code call} throws; fails the test when it returns or is still running after {@link #HANG}. */
  private static Throwable failureOf(Supplier<?> call) throws InterruptedException {
    CompletableFuture<?> f = CompletableFuture.supplyAsync(call);
    try {
      Object result = f.get(HANG.toSeconds(), TimeUnit.SECONDS);
      return fail("the call returned " + result + " instead of failing");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      return fail("the call hung");
    }
  }

  /** Sends SIGSTOP or SIGCONT to a server process (the tests run as root or as the server's user). */
  private static void signal(String name, long pid) {
    try {
      Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + pid + " failed: " + out.strip());
      }
    } catch (IOException e) {
      throw new IllegalStateException("kill -" + name + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
