package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.store.postgres.TestPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --store postgres}: one memory across CLI runs, on a real PostgreSQL server. */
@Timeout(300)
class PostgresCliTest {

  record Run(int exit, String out, String err) {}

  private static Run run(Map<String, String> env, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try (AutoCloseable e = LycheeCli.withEnvironment(env)) {
      var cl = LycheeCli.newCommandLine();
      cl.setErr(new PrintWriter(System.err, true));
      cl.setOut(new PrintWriter(System.out, true));
      int exit = cl.execute(args);
      return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void ingestRecallAndForgetShareOneDatabaseAcrossRuns(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("conv.json");
    Files.writeString(file, """
        {"sessions":[{"id":"s1","date":"2024-03-04T19:20","turns":[
          ["Maya","I adopted a puppy named Biscuit last week."],
          ["Theo","That is lovely! What breed is Biscuit?"],
          ["Maya","Biscuit is a beagle, and he loves running on the beach."]]}]}
        """);
    Map<String, String> env = new HashMap<>(Map.of("HOME", dir.toString(),
        "LYCHEE_PG_URL", TestPostgres.get().url(), "LYCHEE_PG_SCHEMA", TestPostgres.freshSchema()));
    Run ingest = run(env, "ingest", "maya", "--store", "postgres", "--data", file.toString());
    assertThat(ingest.exit()).as(ingest.err()).isZero();

    Run recall = run(env, "recall", "maya", "What breed is Biscuit?", "--store", "postgres");
    assertThat(recall.exit()).as(recall.err()).isZero();
    assertThat(recall.out()).contains("beagle");

    Run forget = run(env, "forget", "maya", "--store", "postgres");
    assertThat(forget.exit()).as(forget.err()).isZero();
    Run after = run(env, "recall", "maya", "What breed is Biscuit?", "--store", "postgres");
    assertThat(after.exit()).isEqualTo(1);
    assertThat(after.out()).doesNotContain("beagle");
    assertThat(dir.resolve(".lychee")).as("nothing on disk for a postgres store").doesNotExist();
  }

  @Test
  void missingUrlAndBadSchemaAreOneLineErrors() throws Exception {
    Run noUrl = run(Map.of(), "recall", "maya", "q", "--store", "postgres");
    assertThat(noUrl.exit()).isEqualTo(1);
    assertThat(noUrl.err().strip()).isEqualTo("lychee: --store postgres needs --pg-url or LYCHEE_PG_URL"
        + " (jdbc:postgresql://host:port/db?user=..&password=..)");
    Run badSchema = run(Map.of("LYCHEE_PG_URL", "jdbc:postgresql://127.0.0.1:1/x?password=hunter2"),
        "recall", "maya", "q", "--store", "postgres", "--pg-schema", "Robert'); DROP");
    assertThat(badSchema.exit()).isEqualTo(1);
    assertThat(badSchema.err().strip()).startsWith("lychee: schema must be a lower-case SQL identifier")
        .doesNotContain("hunter2");
    assertThat(badSchema.err().strip().lines()).hasSize(1);
  }
}
