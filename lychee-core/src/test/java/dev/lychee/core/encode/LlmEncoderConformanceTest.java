package dev.lychee.core.encode;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.conformance.BaseEncoderTestCase;
import dev.lychee.core.llm.JsonExtraction;
import dev.lychee.core.llm.O200kTokenCounter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The LLM encoder against a model that writes one record per turn it finds in the prompt. */
class LlmEncoderConformanceTest extends BaseEncoderTestCase {

  /** Answers every encoder prompt by reading its TURN elements back: "<speaker> said: <text>". */
  static final class TurnEchoModel implements ChatModel {
    private static final Pattern TURN = Pattern.compile(
        "<TURN index=\"(\\d+)\" role=\"(\\w+)\"(?: speaker=\"([^\"]*)\")?>(.*?)</TURN>");

    @Override
    public ChatResult chat(ChatRequest request) {
      String user = request.messages().get(request.messages().size() - 1).content();
      String turns = user.substring(user.indexOf("<CURRENT_TURNS>"));
      ObjectNode root = JsonExtraction.mapper().createObjectNode();
      ArrayNode records = root.putArray("records");
      Matcher m = TURN.matcher(turns);
      while (m.find()) {
        ObjectNode r = records.addObject();
        r.put("memory_type", "fact");
        r.put("semantic_text", m.group(3) + " said: " + m.group(4));
        r.putArray("entities").add(m.group(3));
        r.putArray("tags").add("echo");
        r.putObject("temporal").put("t_ref", "").put("t_valid_from", "").put("t_valid_to", "");
        r.putArray("evidence_turns").add(Integer.parseInt(m.group(1)));
        r.put("source_role", m.group(2));
      }
      root.put("disambiguation_context", "");
      return new ChatResult("```json\n" + root + "\n```", new TokenUsage(user.length() / 4, 50), "echo");
    }

    @Override
    public String modelId() {
      return "turn-echo";
    }
  }

  @Override
  protected Encoder newEncoder() {
    return new LlmEncoder(new TurnEchoModel(), new O200kTokenCounter(), EncodingConfig.defaults());
  }
}
