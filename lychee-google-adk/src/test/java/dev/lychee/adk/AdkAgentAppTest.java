package dev.lychee.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.models.Gemini;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.Client;
import com.google.genai.types.Content;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.Part;
import dev.lychee.api.RawTurn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.core.testing.HashingEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ADK agent with the {@code loadMemory} tool, ADK's Gemini client talking to a local server
 * that speaks the Gemini protocol, and Lychee as the runner's memory service. The model first asks
 * for the tool; the tool result the runner sends back is read on the wire.
 */
@Timeout(60)
class AdkAgentAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APP = "helpdesk";

  private static String reply(String body) throws Exception {
    JsonNode contents = JSON.readTree(body).path("contents");
    JsonNode last = contents.get(contents.size() - 1);
    String said = last.path("parts").get(0).path("text").asText("");
    boolean toolAnswered = last.path("parts").get(0).has("functionResponse");
    ObjectNodeParts parts = new ObjectNodeParts();
    if (!toolAnswered && said.endsWith("?")) {
      parts.functionCall("loadMemory", Map.of("query", said)); // the Java ADK's name for the tool
    } else {
      parts.text(toolAnswered ? "Here is what I remember." : "Noted.");
    }
    return parts.response();
  }

  /** Builds one Gemini generateContent response. */
  private static final class ObjectNodeParts {
    private final com.fasterxml.jackson.databind.node.ObjectNode root = JSON.createObjectNode();
    private final com.fasterxml.jackson.databind.node.ArrayNode parts;

    ObjectNodeParts() {
      var candidate = root.putArray("candidates").addObject();
      candidate.put("finishReason", "STOP");
      var content = candidate.putObject("content");
      content.put("role", "model");
      parts = content.putArray("parts");
      root.putObject("usageMetadata").put("promptTokenCount", 5).put("candidatesTokenCount", 3).put("totalTokenCount", 8);
    }

    void text(String t) {
      parts.addObject().put("text", t);
    }

    void functionCall(String name, Map<String, String> args) {
      var call = parts.addObject().putObject("functionCall");
      call.put("name", name);
      var a = call.putObject("args");
      args.forEach(a::put);
    }

    String response() {
      return root.toString();
    }
  }

  private static Event ask(Runner runner, Session session, String text) {
    List<Event> events = runner.runAsync(session.userId(), session.id(), Content.fromParts(Part.fromText(text)))
        .toList().blockingGet();
    return events.get(events.size() - 1);
  }

  @Test
  void anAgentRecallsItsUsersEarlierSessionsThroughLoadMemoryAndNoOneElses() throws Exception {
    try (ScriptedHttpServer server = ScriptedHttpServer.start();
         Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
             .config(LycheeConfig.builder().llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      server.route(r -> {
        if (!r.path().endsWith(":generateContent")) {
          return null;
        }
        try {
          return ScriptedHttpServer.Response.json(reply(r.body()));
        } catch (Exception e) {
          return ScriptedHttpServer.Response.json(500, "{}");
        }
      });
      Client client = Client.builder().apiKey("test-key")
          .httpOptions(HttpOptions.builder().baseUrl(server.baseUri().toString()).build()).build();
      // readme:begin google-adk
      LlmAgent agent = LlmAgent.builder().name("assistant").model(new Gemini("gemini-2.0-flash", client))
          .instruction("Help the user; look things up in memory when asked about the past.")
          .tools(new LoadMemoryTool())                      // the agent searches Lychee when it needs to
          .build();
      InMemorySessionService sessions = new InMemorySessionService();
      LycheeMemoryService memory = new LycheeMemoryService(lychee);   // one namespace per app and user
      Runner runner = new Runner(agent, APP, new InMemoryArtifactService(), sessions, memory);
      // ... run the session, then, when it ends:
      // memory.addSessionToMemory(session).blockingAwait();
      // readme:end google-adk

      Session alice1 = sessions.createSession(APP, "alice").blockingGet();
      ask(runner, alice1, "My sister Zoe moved to Lisbon last spring.");
      Session bob1 = sessions.createSession(APP, "bob").blockingGet();
      ask(runner, bob1, "I adopted a beagle called Rufus.");
      for (Session s : List.of(alice1, bob1)) {
        Session full = sessions.getSession(APP, s.userId(), s.id(), java.util.Optional.empty()).blockingGet();
        memory.addSessionToMemory(full).blockingAwait();
        memory.addSessionToMemory(full).blockingAwait(); // adding a session twice stores it once
      }
      assertThat(lychee.store().turns(APP + "/alice", alice1.id())).extracting(RawTurn::text)
          .containsExactly("My sister Zoe moved to Lisbon last spring.", "Noted.");
      assertThat(lychee.store().turns(APP + "/alice", alice1.id()).get(1).speaker()).isEqualTo("assistant");

      int before = server.requests().size();
      Session alice2 = sessions.createSession(APP, "alice").blockingGet();
      Event answer = ask(runner, alice2, "Which city does my sister Zoe live in?");
      assertThat(answer.content().orElseThrow().text()).isEqualTo("Here is what I remember.");
      String toolResult = server.requests().get(before + 1).body(); // the request carrying the tool's answer
      assertThat(toolResult).contains("functionResponse").contains("Lisbon").doesNotContain("Rufus");

      before = server.requests().size();
      Session bob2 = sessions.createSession(APP, "bob").blockingGet();
      ask(runner, bob2, "What is the name of my beagle?");
      assertThat(server.requests().get(before + 1).body()).contains("Rufus").doesNotContain("Lisbon", "Zoe");

      List<MemoryEntry> found = memory.searchMemory(APP, "alice", "Zoe Lisbon").blockingGet().memories();
      assertThat(found).isNotEmpty().allSatisfy(m -> assertThat(m.content().text()).doesNotContain("Rufus"));
    }
  }
}
