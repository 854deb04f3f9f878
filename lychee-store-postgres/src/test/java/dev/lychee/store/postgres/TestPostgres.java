package dev.lychee.store.postgres;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.CheckedRecordStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the tests run against, one per test JVM.
 *
 * <p>With {@code LYCHEE_PG_URL} set, tests use that server (each store in a schema of its own).
 * Otherwise a private server is started: {@code initdb} into a temporary directory, {@code pg_ctl
 * start} on a free port of 127.0.0.1 with the unix socket in the same directory, as the
 * {@code postgres} user when the JVM runs as root (the server refuses root). It is stopped and
 * deleted when the JVM exits. If no server can be had, tests are skipped with the reason, except
 * under {@code CI=true}, where they fail.
 */
public final class TestPostgres {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static TestPostgres instance;
  private static String failure;

  private final String baseUrl;
  private final Path dir;
  private final Path bin;
  private final int port;

  private TestPostgres(String baseUrl, Path dir, Path bin, int port) {
    this.baseUrl = baseUrl;
    this.dir = dir;
    this.bin = bin;
    this.port = port;
  }

  /** The shared server; starts it on first use. */
  public static synchronized TestPostgres get() {
    if (instance == null && failure == null) {
      try {
        instance = start();
      } catch (Exception e) {
        failure = e.getMessage();
      }
    }
    if (instance == null) {
      String why = "no PostgreSQL server for the tests: " + failure
          + " (install postgresql-15, or set LYCHEE_PG_URL=jdbc:postgresql://host:port/db?user=..&password=..)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(why);
      }
      Assumptions.abort(why);
    }
    return instance;
  }

  /** A JDBC URL of the server (no schema: stores pick theirs through their config). */
  public String url() {
    return baseUrl;
  }

  /** A store without {@code CheckedRecordStore} in front, for what only PostgreSQL offers. */
  static PostgresRecordStore rawStore(String url, PostgresStoreConfig config) {
    return new PostgresRecordStore(PostgresDatabase.open(url, config));
  }

  /** The database behind a checked PostgreSQL store (as {@code PostgresRecordStore.open} and the module bind it). */
  static PostgresDatabase databaseOf(RecordStore store) {
    return ((PostgresRecordStore) ((CheckedRecordStore) store).storage()).database();
  }

  /** A schema name no other test uses. */
  public static String freshSchema() {
    return "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
  }

  /** True when the tests started this server themselves (and so may restart it). */
  boolean owned() {
    return dir != null;
  }

  /** Restarts the private server (fast shutdown: open sessions are cut). */
  void restart() throws IOException, InterruptedException {
    if (!owned()) {
      throw new IllegalStateException("only a server the tests started can be restarted");
    }
    run(asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast",
        "-w", "-t", "60", "-l", dir.resolve("log").toString(), "-o", serverOptions(), "restart"), 90);
  }

  /**
   * Kills one server process with SIGKILL, as a crash of a backend would: the postmaster then cuts
   * every session and runs crash recovery without restarting itself. Returns once the server
   * accepts connections again.
   */
  void crashBackend() throws SQLException, InterruptedException {
    if (!owned()) {
      throw new IllegalStateException("only a server the tests started can be crashed");
    }
    try (Connection c = connect(); java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      ProcessHandle.of(rs.getLong(1)).orElseThrow().destroyForcibly();
    } catch (SQLException e) {
      // the killed session's own connection breaks on close; expected
    }
    // the postmaster first cuts every other session; a connection taken before that would not last
    Thread.sleep(1000);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Thread.sleep(200);
      try (Connection c = connect()) {
        if (c.isValid(5)) {
          return;
        }
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
    }
  }

  private static TestPostgres start() throws Exception {
    String url = System.getenv("LYCHEE_PG_URL");
    if (url != null && !url.isBlank()) {
      try (Connection c = DriverManager.getConnection(url)) {
        c.isValid(5);
      }
      return new TestPostgres(url, null, null, -1);
    }
    Path bin = findBin();
    Path dir = Files.createTempDirectory("lychee-pg");
    boolean root = "root".equals(System.getProperty("user.name"));
    if (root) {
      UserPrincipal pg = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
      Files.setOwner(dir, pg);
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    int port = freePort();
    TestPostgres server = new TestPostgres("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres",
        dir, bin, port);
    run(server.asPostgres(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", "postgres",
        "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"), 120);
    run(server.asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "60",
        "-l", dir.resolve("log").toString(), "-o", server.serverOptions(), "start"), 90);
    Runtime.getRuntime().addShutdownHook(new Thread(server::stopQuietly, "stop-test-postgres"));
    return server;
  }

  private String serverOptions() {
    // fsync off: the tests check commits across process kills and server restarts, which the WAL
    // in the OS cache survives; only a power loss would need the sync
    return "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        + " -c max_connections=300 -c shared_buffers=32MB";
  }

  private List<String> asPostgres(String... command) {
    List<String> out = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      out.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    out.addAll(List.of(command));
    return out;
  }

  private static Path findBin() {
    String env = System.getenv("LYCHEE_PG_BIN");
    List<Path> candidates = new ArrayList<>();
    if (env != null && !env.isBlank()) {
      candidates.add(Path.of(env));
    }
    for (String v : List.of("17", "16", "15", "14")) {
      candidates.add(Path.of("/usr/lib/postgresql", v, "bin"));
    }
    for (Path p : candidates) {
      if (Files.isExecutable(p.resolve("pg_ctl")) && Files.isExecutable(p.resolve("initdb"))) {
        return p;
      }
    }
    throw new IllegalStateException("no initdb/pg_ctl in " + candidates + " (set LYCHEE_PG_BIN)");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " timed out");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(command.get(command.size() - 1).toLowerCase(Locale.ROOT) + " failed ("
          + String.join(" ", command) + "): " + new String(out, StandardCharsets.UTF_8).strip());
    }
  }

  private void stopQuietly() {
    try {
      run(asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
          "-w", "stop"), 30);
    } catch (Exception e) {
      // the JVM is exiting; a server left behind dies with its deleted directory
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory
    }
  }

  /** Opens a plain connection (for tests that poke at the schema). */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(baseUrl);
  }
}
