package dev.lychee.embed.onnx.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the turns of a LoCoMo file as texts, one list per session: {@code "<speaker>: <text>"},
 * plus {@code " [shares photo: <caption>]"} when the turn has a BLIP caption.
 */
final class LocomoSessions {
  private LocomoSessions() {}

  /** Sessions of every conversation, in file order; each session is a list of turn texts. */
  static List<List<String>> read(Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    List<List<String>> sessions = new ArrayList<>();
    for (JsonNode sample : root) {
      JsonNode conversation = sample.path("conversation");
      // sessions are numbered 1..N without gaps; date keys may go further (see the data README)
      for (int n = 1; conversation.has("session_" + n); n++) {
        List<String> turns = new ArrayList<>();
        for (JsonNode turn : conversation.get("session_" + n)) {
          turns.add(turnText(turn));
        }
        sessions.add(turns);
      }
    }
    return sessions;
  }

  static String turnText(JsonNode turn) {
    String text = turn.path("speaker").asText() + ": " + turn.path("text").asText();
    JsonNode caption = turn.get("blip_caption");
    if (caption != null && !caption.asText().isBlank()) {
      text += " [shares photo: " + caption.asText() + "]";
    }
    return text;
  }
}
