package dev.lychee.server.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
