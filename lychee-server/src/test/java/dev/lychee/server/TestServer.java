package dev.lychee.server;

import dev.lychee.core.Lychee;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.server.auth.ApiKey;
import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.NamespacePattern;
import dev.lychee.server.auth.Right;
import java.util.ArrayList;
import java.util.List;

/**
 * A real server on 127.0.0.1 and an ephemeral port over an in-memory Lychee (hashing embedder,
 * offline components), with a fixed set of keys for auth tests.
 */
final class TestServer implements AutoCloseable {
  /** Secrets of the test keys (hashes are what the server holds). */
  static final String ADMIN = "admin-secret-0123456789";
  static final String ALICE_WRITE = "alice-write-secret-abcdef";
  static final String ALICE_READ = "alice-read-secret-ghijkl";
  static final String TEAM_WRITE = "team-write-secret-mnopqr";
  static final String BOB_WRITE = "bob-write-secret-stuvwx";
  static final String ALICE_ADMIN = "alice-admin-secret-yz0123";

  final Lychee memory;
  final LycheeServer server;
  final Http http;

  private TestServer(Lychee memory, LycheeServer server) {
    this.memory = memory;
    this.server = server;
    this.http = new Http(server.baseUrl());
  }

  static ApiKeys keys() {
    List<ApiKey> keys = new ArrayList<>();
    keys.add(key("admin", ADMIN, Right.ADMIN, null, "*"));
    keys.add(key("alice-write", ALICE_WRITE, Right.WRITE, null, "alice"));
    keys.add(key("alice-read", ALICE_READ, Right.READ, null, "alice"));
    keys.add(key("team-write", TEAM_WRITE, Right.WRITE, "team-a", "team-*"));
    keys.add(key("bob-write", BOB_WRITE, Right.WRITE, null, "bob"));
    keys.add(key("alice-admin", ALICE_ADMIN, Right.ADMIN, null, "alice"));
    return ApiKeys.of(keys);
  }

  static ApiKey key(String id, String secret, Right right, String dflt, String... patterns) {
    return new ApiKey(id, ApiKeys.sha256(secret), java.util.Arrays.stream(patterns).map(NamespacePattern::new).toList(), right, dflt);
  }

  static TestServer start() {
    return start(ServerConfig.builder().port(0).keys(keys()).maxBodyBytes(64 * 1024).evalJson(evaluation()).build());
  }

  /** A small evaluation result for the inspector's chart route. */
  private static java.nio.file.Path evaluation() {
    try {
      java.nio.file.Path f = java.nio.file.Files.createTempFile("lychee-eval", ".json");
      f.toFile().deleteOnExit();
      return java.nio.file.Files.writeString(f, "{\"systems\":{\"lychee\":{\"recall_tokens\":{\"1000\":0.84}}}}");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static TestServer start(ServerConfig config) {
    return start(config, Lychee.builder().embedder(new HashingEmbedder()).build());
  }

  /** A server over {@code memory}, which the returned server closes with itself. */
  static TestServer start(ServerConfig config, Lychee memory) {
    try {
      return new TestServer(memory, LycheeServer.start(config, memory));
    } catch (RuntimeException e) {
      memory.close();
      throw e;
    }
  }

  @Override
  public void close() {
    server.close();
    memory.close();
  }
}
