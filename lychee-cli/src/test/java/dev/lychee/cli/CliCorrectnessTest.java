package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The CLI as a new user meets it: exit codes, one-line errors, paths, files it creates. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class CliCorrectnessTest {
  private Path dir;
  private Path home;
  private Run ingested;

  record Run(int exit, String out, String err) {}

  private Run run(Map<String, String> env, String... args) throws Exception {
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

  private Map<String, String> env() {
    return Map.of("HOME", home.toString());
  }

  @BeforeAll
  void ingestOneConversation(@TempDir Path tmp) throws Exception {
    dir = tmp;
    home = dir.resolve("home");
    Files.createDirectories(home);
    Path file = dir.resolve("conv.json");
    Files.writeString(file, """
        {"sessions":[{"id":"s1","date":"2024-03-04T19:20","turns":[
          ["Maya","I adopted a puppy named Biscuit last week."],
          ["Theo","   "],
          ["Theo","That is lovely! What breed is Biscuit?"],
          ["Maya","Biscuit is a beagle, and he loves running on the beach."]]}]}
        """);
    ingested = run(env(), "ingest", "alice", "--data", file.toString());
  }

  @Test
  void anUnknownCommandIsAUsageError() throws Exception {
    Run r = run(env(), "statuss");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("lychee: unknown command 'statuss'; commands: demo, ingest");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void readingCommandsCreateNothing() throws Exception {
    Path elsewhere = dir.resolve("fresh-home");
    Map<String, String> env = Map.of("HOME", elsewhere.toString());
    for (String[] args : List.of(new String[] {"recall", "alice", "q"}, new String[] {"ask", "alice", "q"},
        new String[] {"inspect"}, new String[] {"forget", "alice"})) {
      Run r = run(env, args);
      assertThat(r.exit()).as(args[0]).isEqualTo(1);
      assertThat(r.err()).as(args[0]).contains("no memory at " + elsewhere.resolve(".lychee/lychee.db"));
    }
    Path typo = dir.resolve("no/such/dir/lychee.db");
    Run r = run(env(), "inspect", "alice", "--db", typo.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("lychee: no memory at " + typo
        + " (nothing was ingested there; check --db, LYCHEE_DB or LYCHEE_HOME, or run `lychee ingest` first)");
    assertThat(elsewhere).doesNotExist();
    assertThat(dir.resolve("no")).doesNotExist();
  }

  /** The stores create what is missing when they open: a reading command must not let them. */
  @Test
  void readingCommandsCreateNoStoreInAnExistingDirectoryOrEmptyFile() throws Exception {
    Path notAStore = Files.createDirectories(dir.resolve("documents"));
    Path emptyFile = Files.createFile(dir.resolve("empty.db"));
    for (List<String> args : List.of(List.of("recall", "alice", "q"), List.of("ask", "alice", "q"), List.of("inspect"),
        List.of("forget", "alice"), List.of("status", "alice"), List.of("encode", "--pending", "alice"))) {
      List<String> lucene = new ArrayList<>(args);
      lucene.addAll(List.of("--store", "lucene", "--db", notAStore.toString()));
      Run r = run(env(), lucene.toArray(String[]::new));
      assertThat(r.exit()).as(lucene + r.err()).isEqualTo(1);
      assertThat(r.err()).as(lucene.toString()).contains("lychee: no memory at " + notAStore
          + " (the directory holds no Lucene store; check --db, LYCHEE_DB or LYCHEE_HOME, or run `lychee ingest` first)");
      List<String> sqlite = new ArrayList<>(args);
      sqlite.addAll(List.of("--db", emptyFile.toString()));
      r = run(env(), sqlite.toArray(String[]::new));
      assertThat(r.exit()).as(sqlite + r.err()).isEqualTo(1);
      assertThat(r.err()).as(sqlite.toString()).contains("lychee: no memory at " + emptyFile + " (the file is empty;");
    }
    try (var files = Files.list(notAStore)) {
      assertThat(files).isEmpty();
    }
    assertThat(emptyFile).isEmptyFile();
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("empty.db") && !n.equals("empty.db"));
    }
    // a Lucene store that ingest made is found again
    Path lucene = dir.resolve("lucene-store");
    assertThat(run(env(), "ingest", "alice", "--data", dir.resolve("conv.json").toString(), "--store", "lucene", "--db",
        lucene.toString()).exit()).isZero();
    Run inspect = run(env(), "inspect", "alice", "--store", "lucene", "--db", lucene.toString());
    assertThat(inspect.exit()).as(inspect.err()).isZero();
    assertThat(inspect.out()).contains("1 sessions, 3 turns");
  }

  @Test
  void theDefaultPathFollowsHomeAndTheOverrides() {
    assertThat(MemoryLocation.resolve("sqlite", null, Map.of("HOME", "/h")).path()).isEqualTo(Path.of("/h/.lychee/lychee.db"));
    assertThat(MemoryLocation.resolve("lucene", null, Map.of("HOME", "/h")).path()).isEqualTo(Path.of("/h/.lychee/lucene"));
    assertThat(MemoryLocation.resolve("sqlite", null, Map.of("HOME", "/h", "LYCHEE_HOME", "/l")).path())
        .isEqualTo(Path.of("/l/lychee.db"));
    assertThat(MemoryLocation.resolve("sqlite", null, Map.of("HOME", "/h", "LYCHEE_DB", "/d/m.db")).path())
        .isEqualTo(Path.of("/d/m.db"));
    assertThat(MemoryLocation.resolve("sqlite", Path.of("/x.db"), Map.of("LYCHEE_DB", "/d/m.db")).path())
        .isEqualTo(Path.of("/x.db"));
  }

  @Test
  void anUnknownNamespaceIsAnErrorThatNamesTheKnownOnes() throws Exception {
    for (String cmd : List.of("recall", "ask")) {
      Run r = run(env(), cmd, "alicee", "What breed is Biscuit?");
      assertThat(r.exit()).as(cmd).isEqualTo(1);
      assertThat(r.err()).as(cmd).contains("lychee: namespace 'alicee' holds nothing here; namespaces: alice");
      assertThat(r.out()).as(cmd).doesNotContain("(no evidence)");
    }
    assertThat(run(env(), "inspect", "alicee").exit()).isEqualTo(1);
    // status and encode answered a typo with zeros and exit 0: a monitoring script's false all-clear
    for (List<String> args : List.of(List.of("status", "alicee"), List.of("encode", "--pending", "alicee"))) {
      Run r = run(env(), args.toArray(String[]::new));
      assertThat(r.exit()).as(args.toString()).isEqualTo(1);
      assertThat(r.err()).as(args.toString()).contains("lychee: namespace 'alicee' holds nothing here; namespaces: alice");
      assertThat(r.out()).as(args.toString()).doesNotContain("0 turns").doesNotContain("Encoded 0");
    }
  }

  @Test
  void forgettingAnUnknownSessionIsAnErrorThatNamesTheKnownOnes() throws Exception {
    Run r = run(env(), "forget", "alice", "--session", "s-typo");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("lychee: session 's-typo' of namespace 'alice' holds nothing here; sessions: s1");
    assertThat(r.out()).doesNotContain("removed");
    assertThat(run(env(), "inspect", "alice").out()).contains("1 sessions, 3 turns");
  }

  @Test
  void aMissingFileAndMalformedJsonGetOneReadableLine() throws Exception {
    Path missing = dir.resolve("nope.json");
    Run r = run(env(), "ingest", "alice", "--data", missing.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("lychee: no such file: " + missing);

    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"sessions\": [\n");
    r = run(env(), "ingest", "alice", "--data", bad.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).startsWith("lychee: " + bad + " is not valid JSON (line 2, column 1): ")
        .doesNotContain("Source").doesNotContain("com.fasterxml").doesNotContain("REDACTED");
    assertThat(r.err().strip().lines()).hasSize(1);
  }

  @Test
  void aFileThatIsNotADatabaseGetsOneLine() throws Exception {
    Path notDb = dir.resolve("notes.txt");
    Files.writeString(notDb, "shopping list: eggs\n");
    for (String cmd : List.of("inspect", "ingest")) {
      Run r = cmd.equals("inspect") ? run(env(), "inspect", "alice", "--db", notDb.toString())
          : run(env(), "ingest", "alice", "--data", dir.resolve("conv.json").toString(), "--db", notDb.toString());
      assertThat(r.exit()).as(cmd).isEqualTo(1);
      assertThat(r.err().lines().filter(l -> !l.startsWith("lychee: warning: ")))
          .as(cmd).containsExactly("lychee: " + notDb + " is not a Lychee database (not a SQLite file)");
    }
    assertThat(Files.readString(notDb)).isEqualTo("shopping list: eggs\n");
  }

  @Test
  void aBlankTurnIsSkippedWithAWarningAndTheRestIsStored() throws Exception {
    assertThat(ingested.exit()).as(ingested.err()).isZero();
    assertThat(ingested.err()).contains("lychee: warning: " + dir.resolve("conv.json") + ": session s1, turn 2 is blank; skipped");
    assertThat(ingested.out()).contains("Stored 3 new turns").contains("Skipped 1 turn that could not be stored");
    Run inspect = run(env(), "inspect", "alice");
    assertThat(inspect.out()).contains("1 sessions, 3 turns");
  }

  @Test
  void evidenceIsPrintedBestFirst() throws Exception {
    Run r = run(env(), "recall", "alice", "What breed is Biscuit?", "-k", "8");
    assertThat(r.exit()).isZero();
    Matcher m = Pattern.compile("(?m)^\\s+(\\d+)\\. (\\d\\.\\d{3}) ").matcher(r.out());
    List<Double> scores = new ArrayList<>();
    int expected = 1;
    while (m.find()) {
      assertThat(Integer.parseInt(m.group(1))).isEqualTo(expected++);
      scores.add(Double.parseDouble(m.group(2)));
    }
    assertThat(scores).hasSizeGreaterThan(2);
    assertThat(scores).isSortedAccordingTo(java.util.Comparator.reverseOrder());
  }

  @Test
  void aBudgetSizesTheEvidenceOfRecallAndAsk() throws Exception {
    for (String cmd : List.of("recall", "ask")) {
      Run r = cmd.equals("ask") ? run(env(), "ask", "alice", "What breed is Biscuit?", "--budget", "60", "--evidence")
          : run(env(), "recall", "alice", "What breed is Biscuit?", "--budget", "60");
      assertThat(r.exit()).as(r.err()).isZero();
      Matcher m = Pattern.compile("(?m)^evidence: (\\d+) items?, (\\d+) of 60 tokens$").matcher(r.out());
      assertThat(m.find()).as(r.out()).isTrue();
      assertThat(Integer.parseInt(m.group(2))).isLessThanOrEqualTo(60);
      assertThat(Integer.parseInt(m.group(1))).isPositive();
    }
  }

  @Test
  void aBadBudgetIsAUsageErrorBeforeAnythingIsOpened() throws Exception {
    for (String bad : List.of("0", "31", "1000001", "-5")) {
      Run r = run(env(), "recall", "alice", "What breed is Biscuit?", "--budget", bad);
      assertThat(r.exit()).as(bad).isEqualTo(2);
      assertThat(r.err()).contains("lychee: --budget must be between 32 and 1000000 tokens: " + bad);
    }
    Run r = run(env(), "ask", "alice", "q", "--budget", "many");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--budget");
  }

  /**
   * Numbers out of range, an unknown store or segmenter: exit 2 with a line that names the option,
   * before any store is opened or created (demo used to ingest its 70 turns first, ingest to store
   * the whole file before an overflowing --wait failed).
   */
  @Test
  void badOptionValuesAreUsageErrorsBeforeAnythingIsOpened() throws Exception {
    Path fresh = dir.resolve("never-created.db");
    String conv = dir.resolve("conv.json").toString();
    Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
    cases.put(List.of("inspect", "alice", "--limit", "-1"), "--limit must be >= 0: -1");
    cases.put(List.of("demo", "--top", "-1"), "--top must be >= 1: -1");
    cases.put(List.of("demo", "-k", "0"), "-k must be >= 1: 0");
    cases.put(List.of("demo", "--web", "--port", "70000"), "--port must be between 0 and 65535: 70000");
    cases.put(List.of("demo", "--web", "--port", "-1"), "--port must be between 0 and 65535: -1");
    cases.put(List.of("recall", "alice", "q", "-k", "0"), "-k must be >= 1: 0");
    cases.put(List.of("ask", "alice", "q", "-k", "-3"), "-k must be >= 1: -3");
    cases.put(List.of("ingest", "bob", "--data", conv, "--db", fresh.toString(), "--wait", "99999999999999"),
        "--wait must be between 0 and 86400 seconds: 99999999999999");
    cases.put(List.of("ingest", "bob", "--data", conv, "--db", fresh.toString(), "--wait", "-1"),
        "--wait must be between 0 and 86400 seconds: -1");
    cases.put(List.of("encode", "--pending", "alice", "--wait", "86401"), "--wait must be between 1 and 86400 seconds: 86401");
    cases.put(List.of("ingest", "bob", "--data", conv, "--db", fresh.toString(), "--store", "sqllite"),
        "unknown --store 'sqllite' (expected memory, sqlite, lucene or postgres)");
    cases.put(List.of("inspect", "--store", "lucen"), "unknown --store 'lucen'");
    cases.put(List.of("ingest", "bob", "--data", conv, "--db", fresh.toString(), "--segmenter", "semantik"),
        "bad --segmenter: unknown segmenter 'semantik'");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      Run r = run(env(), c.getKey().toArray(String[]::new));
      assertThat(r.exit()).as(c.getKey() + r.err()).isEqualTo(2);
      assertThat(r.err()).as(c.getKey().toString()).startsWith("lychee: " + c.getValue());
      // MemoryOptions.open prints where the memory is before anything else
      assertThat(r.out()).as(c.getKey().toString()).doesNotContain("store").doesNotContain("Ingested");
    }
    assertThat(fresh).doesNotExist();
    assertThat(run(env(), "inspect", "alice", "--limit", "0").exit()).isZero();
  }

  @Test
  void ingestCreatesThePrivateHomeDatabaseAndGraphDirectory() throws Exception {
    Path lychee = home.resolve(".lychee");
    assertThat(perms(lychee)).isEqualTo("rwx------");
    assertThat(perms(lychee.resolve("lychee.db"))).isEqualTo("rw-------");
    assertThat(perms(lychee.resolve("lychee.db.hnsw"))).isEqualTo("rwx------");
    try (var files = Files.list(lychee)) {
      files.filter(f -> f.getFileName().toString().startsWith("lychee.db-"))
          .forEach(f -> assertThat(perms(f)).as(f.toString()).isEqualTo("rw-------"));
    }
  }

  private static String perms(Path p) {
    try {
      return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
