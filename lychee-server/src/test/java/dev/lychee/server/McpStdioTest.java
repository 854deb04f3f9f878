package dev.lychee.server;

import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** MCP over stdio: the SDK's client starts {@code ServerMain mcp} (SQLite file, ONNX embedder) as a child process. */
@Timeout(240)
class McpStdioTest {
  @TempDir Path dir;

  @Test
  void toolsWorkOverStdio() throws Exception {
    Path db = dir.resolve("mcp.db");
    try (McpSyncClient c = McpClients.stdio(db, "notes")) {
      c.initialize();
      McpToolsContract.exercise(c, "notes");
    }
    org.assertj.core.api.Assertions.assertThat(Files.exists(db)).isTrue();
  }
}
