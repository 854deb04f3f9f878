package dev.lychee.server.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.store.postgres.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the server keeps its memory: the CLI's rule, and nothing created for a bad environment. */
class BackendsTest {
  @TempDir Path dir;

  @Test
  void theDatabaseFollowsTheCliRule() {
    Path explicit = dir.resolve("given.db");
    Map<String, String> all = Map.of("LYCHEE_DB", dir.resolve("env.db").toString(),
        "LYCHEE_HOME", dir.resolve("home").toString(), "HOME", dir.resolve("user").toString());
    assertThat(Backends.of(explicit, all).db()).isEqualTo(explicit.toAbsolutePath());
    assertThat(Backends.of(null, all).db()).isEqualTo(dir.resolve("env.db").toAbsolutePath());
    assertThat(Backends.of(null, Map.of("LYCHEE_DB", "  ", "LYCHEE_HOME", dir.resolve("home").toString(),
        "HOME", dir.resolve("user").toString())).db()).isEqualTo(dir.resolve("home").resolve("lychee.db").toAbsolutePath());
    assertThat(Backends.of(null, Map.of("HOME", dir.resolve("user").toString())).db())
        .isEqualTo(dir.resolve("user").resolve(".lychee").resolve("lychee.db").toAbsolutePath());
    assertThat(Backends.of(dir.resolve("a/../b.db"), Map.of()).db()).isEqualTo(dir.resolve("b.db").toAbsolutePath());
  }

  @Test
  void aBadSettingInTheEnvironmentIsRefusedBeforeAnythingIsCreated() {
    Path home = dir.resolve("home");
    for (Map<String, String> env : new Map[] {
        Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_LLM", "gpt-4o"),
        Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_EMBEDDER", "word2vec"),
        Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_LLM", "openai:gpt-4.1-mini", "OPENAI_BASE_URL", "not a url")}) {
      assertThatThrownBy(() -> Backends.of(null, env).open(line -> { }))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageMatching("(LYCHEE_LLM='gpt-4o': expected|LYCHEE_EMBEDDER='word2vec': expected|OPENAI_BASE_URL is not a valid URL).*");
    }
    assertThat(Files.exists(home)).isFalse();
  }

  @Test
  void aDirectoryWhereTheDatabaseShouldBeIsNamed() throws Exception {
    Path db = Files.createDirectories(dir.resolve("memory.db"));
    assertThatThrownBy(() -> Backends.of(db, Map.of()).open(line -> { }))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(db.toString()).hasMessageContaining("is a directory");
  }

  @Test
  void postgresNeedsAUrlAndAKnownStoreKind() {
    Path home = dir.resolve("home");
    assertThatThrownBy(() -> Backends.of(null, Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_STORE", "postgres"))
        .open(line -> { })).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--store postgres needs --pg-url or LYCHEE_PG_URL");
    assertThatThrownBy(() -> Backends.of(null, Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_STORE", "mysql"))
        .open(line -> { })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected sqlite or postgres");
    assertThat(Files.exists(home)).isFalse();
    StoreOptions options = new StoreOptions();
    options.store = "postgres";
    options.pgUrl = "jdbc:postgresql://db.internal:5432/mem?user=u&password=hunter2";
    Backends pg = Backends.of(null, options.over(Map.of("LYCHEE_STORE", "sqlite", "HOME", home.toString())));
    assertThat(pg.location()).isEqualTo("postgresql://db.internal:5432/mem").doesNotContain("hunter2");
  }

  @Test
  void postgresIsOneMemoryForTwoServers() {
    Map<String, String> env = Map.of("LYCHEE_STORE", "postgres", "LYCHEE_PG_URL", TestPostgres.get().url(),
        "LYCHEE_PG_SCHEMA", TestPostgres.freshSchema(), "LYCHEE_HOME", dir.resolve("home").toString());
    List<String> said = new ArrayList<>();
    try (Lychee first = Backends.of(null, env).open(said::add); Lychee second = Backends.of(null, env).open(said::add)) {
      first.append("maya", "s1", List.of(Turn.user("Maya", "My puppy Biscuit is a beagle.")));
      first.flush("maya", "s1");
      assertThat(second.store().turns("maya", "s1")).extracting(t -> t.text()).containsExactly("My puppy Biscuit is a beagle.");
    }
    assertThat(said).allSatisfy(line -> assertThat(line).startsWith("PostgreSQL store postgresql://127.0.0.1:"));
    assertThat(Files.exists(dir.resolve("home"))).as("no SQLite file for a postgres memory").isFalse();
  }

  /** {@code LYCHEE_DEADLINE} sets the read deadline of serve and mcp; a bad value is refused before anything is created. */
  @Test
  void theReadDeadlineComesFromTheEnvironment() {
    Path home = dir.resolve("home");
    assertThatThrownBy(() -> Backends.of(null, Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_DEADLINE", "soon")).open(line -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LYCHEE_DEADLINE='soon': expected the read deadline as a number of seconds in (0, 86400], e.g. 60");
    assertThat(Files.exists(home)).isFalse();
    try (Lychee memory = Backends.of(null, Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_DEADLINE", "5")).open(line -> { })) {
      assertThat(memory.config().fallback().deadline()).isEqualTo(java.time.Duration.ofSeconds(5));
    }
    try (Lychee memory = Backends.of(null, Map.of("LYCHEE_HOME", home.toString())).open(line -> { })) {
      assertThat(memory.config().fallback().deadline()).isEqualTo(java.time.Duration.ofSeconds(60));
    }
  }

  /** serve and mcp say, before the first call, that OpenAI's endpoint will refuse every call without a key (as the CLI does). */
  @Test
  void aMissingOpenAiKeyIsSaidAtStart() {
    Map<String, String> env = Map.of("LYCHEE_HOME", dir.resolve("home").toString(), "LYCHEE_LLM", "openai:gpt-4.1-mini");
    List<String> said = new ArrayList<>();
    try (Lychee memory = Backends.of(null, env).open(said::add)) {
      assertThat(said).hasSize(2);
      assertThat(said.get(1)).startsWith("warning: OPENAI_API_KEY is not set: calls to api.openai.com will be refused")
          .contains("segments stay pending").contains("encode-pending");
    }
    said.clear();
    Map<String, String> keyed = new java.util.HashMap<>(env);
    keyed.put("OPENAI_API_KEY", "sk-test-never-shown");
    try (Lychee memory = Backends.of(null, keyed).open(said::add)) {
      assertThat(said).hasSize(1);
      assertThat(String.join("\n", said)).doesNotContain("OPENAI_API_KEY").doesNotContain("sk-test-never-shown");
    }
  }
}
