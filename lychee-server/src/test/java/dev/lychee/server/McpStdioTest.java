package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.store.sqlite.SqliteRecordStore;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
    assertThat(Files.exists(db)).isTrue();
  }

  /**
   * A client that only closes the pipe (no signal) must not leave the JVM behind: the server exits
   * with 0 by itself, after closing the memory, so what it stored is in the file.
   */
  @Test
  void exitsWithZeroWhenTheClientClosesStdin() throws Exception {
    Path db = dir.resolve("eof.db");
    Path stderr = dir.resolve("stderr.txt");
    Process p = new ProcessBuilder(McpClients.stdioCommand(db, "notes")).redirectError(stderr.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      OutputStream in = p.getOutputStream();
      rpc(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"pipe\",\"version\":\"1\"}}}");
      assertThat(response(out, 1).path("result").path("serverInfo").path("name").asText()).isEqualTo("lychee");
      rpc(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      rpc(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
          + "\"arguments\":{\"note\":\"Nadia adopted a grey cat called Miso.\"}}}");
      JsonNode remembered = response(out, 2);
      assertThat(remembered.path("result").path("isError").asBoolean(false)).as(remembered.toString()).isFalse();

      in.close(); // the client goes away without a signal

      // a hang guard, not a timing: a server that ignores end of input never exits
      boolean exited = p.waitFor(120, TimeUnit.SECONDS);
      assertThat(exited).as("the server exited after its stdin closed; stderr: %s", Files.readString(stderr)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(stderr)).isZero();
      String log = Files.readString(stderr);
      assertThat(log).contains("the client closed stdin; stopped").doesNotContain("Exception");
    } finally {
      p.destroyForcibly();
    }
    try (RecordStore store = SqliteRecordStore.open(db)) {
      assertThat(store.countTurns("notes")).isEqualTo(1);
    }
  }

  private static void rpc(OutputStream in, String line) throws Exception {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Reads stdout lines until the response with {@code id} (notifications and logs in between are skipped). */
  private static JsonNode response(BufferedReader out, int id) throws Exception {
    for (String line; (line = out.readLine()) != null; ) {
      JsonNode n = Http.JSON.readTree(line);
      if (n.path("id").asInt(-1) == id) {
        return n;
      }
    }
    throw new AssertionError("stdout ended before the response " + id);
  }
}
