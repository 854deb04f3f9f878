package dev.lychee.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeysTest {
  @TempDir Path dir;

  static String file(String id, String secret, String right, String... ns) {
    return "{\"keys\":[{\"id\":\"" + id + "\",\"sha256\":\"" + ApiKeys.sha256Hex(secret) + "\",\"namespaces\":[\""
        + String.join("\",\"", ns) + "\"],\"right\":\"" + right + "\"}]}";
  }

  @Test
  void keysAreFoundByTheirSecretOnly() {
    ApiKeys keys = ApiKeyFile.parse(file("a", "s3cret", "write", "alice", "team-*"), "test");
    ApiKey k = keys.authenticate("s3cret").orElseThrow();
    assertThat(k.id()).isEqualTo("a");
    assertThat(keys.authenticate("s3cre")).isEmpty();
    assertThat(keys.authenticate("s3cret ")).isEmpty();
    assertThat(keys.authenticate("")).isEmpty();
    assertThat(keys.authenticate(null)).isEmpty();
    assertThat(k.allows("alice", Right.READ)).isTrue();
    assertThat(k.allows("alice", Right.WRITE)).isTrue();
    assertThat(k.allows("alice", Right.ADMIN)).isFalse();
    assertThat(k.allows("team-x", Right.WRITE)).isTrue();
    assertThat(k.allows("teamx", Right.READ)).isFalse();
    assertThat(k.allows("alice2", Right.READ)).isFalse();
    assertThat(k.toString()).doesNotContain(ApiKeys.sha256Hex("s3cret"));
  }

  @Test
  void filesAndTheEnvironmentAreRead() throws Exception {
    Path f = dir.resolve("keys.json");
    Files.writeString(f, file("ops", "k1", "admin", "*"));
    assertThat(ApiKeyFile.read(f).keys()).hasSize(1);
    assertThat(ApiKeyFile.fromEnvironment(Map.of("LYCHEE_API_KEYS_FILE", f.toString())).keys()).hasSize(1);
    assertThat(ApiKeyFile.fromEnvironment(Map.of("LYCHEE_API_KEYS", file("x", "k2", "read", "bob"))).authenticate("k2")).isPresent();
    assertThat(ApiKeyFile.fromEnvironment(Map.of()).isEmpty()).isTrue();
  }

  @Test
  void badFilesGetPreciseErrorsThatNeverShowAHash() {
    String hash = ApiKeys.sha256Hex("x");
    assertThatThrownBy(() -> ApiKeyFile.parse("{", "f")).hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> ApiKeyFile.parse("{\"keys\":[{\"id\":\"a\",\"key\":\"plain\"}]}", "f"))
        .hasMessageContaining("unknown field 'key'").hasMessageContaining("SHA-256");
    assertThatThrownBy(() -> ApiKeyFile.parse("{\"keys\":[{\"id\":\"a\",\"sha256\":\"abc\",\"namespaces\":[\"x\"],\"right\":\"read\"}]}", "f"))
        .hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> ApiKeyFile.parse("{\"keys\":[{\"id\":\"a\",\"sha256\":\"" + hash + "\",\"namespaces\":[\"x\"],\"right\":\"root\"}]}", "f"))
        .hasMessageContaining("unknown right 'root'").message().doesNotContain(hash);
    assertThatThrownBy(() -> ApiKeyFile.parse("{\"keys\":[{\"id\":\"a\",\"sha256\":\"" + hash + "\",\"namespaces\":[\"a*b\"],\"right\":\"read\"}]}", "f"))
        .hasMessageContaining("only allowed at the end");
    assertThatThrownBy(() -> ApiKeyFile.parse("{\"keys\":[{\"id\":\"a\",\"sha256\":\"" + hash + "\",\"namespaces\":[],\"right\":\"read\"}]}", "f"))
        .hasMessageContaining("at least one namespace");
    assertThatThrownBy(() -> ApiKeys.of(List.of(
        new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("x")), Right.READ, null),
        new ApiKey("a", ApiKeys.sha256("2"), List.of(new NamespacePattern("y")), Right.READ, null))))
        .hasMessageContaining("share the id 'a'");
    // one secret under two entries would act as whichever comes first: refused, naming both ids and never the hash
    String shared = ApiKeys.sha256Hex("one-secret");
    String twoEntries = "{\"keys\":[{\"id\":\"ops\",\"sha256\":\"" + shared + "\",\"namespaces\":[\"*\"],\"right\":\"admin\"},"
        + "{\"id\":\"other\",\"sha256\":\"" + hash + "\",\"namespaces\":[\"x\"],\"right\":\"read\"},"
        + "{\"id\":\"bot\",\"sha256\":\"" + shared.toUpperCase(java.util.Locale.ROOT) + "\",\"namespaces\":[\"bot\"],\"right\":\"read\"}]}";
    assertThatThrownBy(() -> ApiKeyFile.parse(twoEntries, "keys.json"))
        .hasMessage("keys.json: API keys 'ops' and 'bot' have the same secret; give each key its own secret")
        .message().doesNotContainIgnoringCase(shared);
    assertThatThrownBy(() -> ApiKeys.of(List.of(
        new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("x")), Right.READ, null),
        new ApiKey("b", ApiKeys.sha256("1"), List.of(new NamespacePattern("y")), Right.READ, null))))
        .hasMessageContaining("'a' and 'b' have the same secret");
    assertThatThrownBy(() -> new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("x")), Right.READ, "y"))
        .hasMessageContaining("outside its namespaces");
  }

  @Test
  void mcpNamespaceComesFromTheKey() {
    assertThat(new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("alice")), Right.READ, null).mcpNamespace()).isEqualTo("alice");
    assertThat(new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("t-*")), Right.READ, null).mcpNamespace()).isNull();
    assertThat(new ApiKey("a", ApiKeys.sha256("1"), List.of(new NamespacePattern("t-*")), Right.READ, "t-1").mcpNamespace()).isEqualTo("t-1");
  }
}
