package dev.lychee.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.Turn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Lychee's conversation file format, used by {@code demo} and {@code ingest}:
 *
 * <pre>{@code
 * {"speakers": ["Maya", "Theo"],
 *  "sessions": [{"id": "s1", "date": "2024-03-04T19:20", "turns": [["Maya", "Hi!"], ...]}],
 *  "questions": ["optional", "questions"]}
 * }</pre>
 *
 * Each turn is {@code [speaker, text]}; every turn is stored as a user-role turn of its speaker.
 */
record ConversationFile(List<String> speakers, List<Session> sessions, List<String> questions) {

  record Session(String id, LocalDateTime date, List<Turn> turns) {}

  static ConversationFile read(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      return parse(in, path.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  static ConversationFile demo() {
    try (InputStream in = ConversationFile.class.getResourceAsStream("demo-conversation.json")) {
      if (in == null) {
        throw new IllegalStateException("the demo conversation is missing from the jar");
      }
      return parse(in, "demo-conversation.json");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static ConversationFile parse(InputStream in, String name) throws IOException {
    JsonNode root = new ObjectMapper().readTree(in);
    if (root == null || !root.path("sessions").isArray()) {
      throw new IllegalArgumentException(name + ": expected an object with a \"sessions\" array");
    }
    List<String> speakers = new ArrayList<>();
    root.path("speakers").forEach(s -> speakers.add(s.asText()));
    List<Session> sessions = new ArrayList<>();
    int n = 0;
    for (JsonNode s : root.path("sessions")) {
      n++;
      String id = s.path("id").asText("s" + n);
      LocalDateTime date = null;
      if (s.hasNonNull("date")) {
        try {
          date = LocalDateTime.parse(s.get("date").asText());
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException(name + ": session " + id + " has date '" + s.get("date").asText()
              + "'; expected ISO local date-time like 2024-03-04T19:20");
        }
      }
      List<Turn> turns = new ArrayList<>();
      for (JsonNode t : s.path("turns")) {
        if (!t.isArray() || t.size() != 2) {
          throw new IllegalArgumentException(name + ": session " + id + ": each turn must be [speaker, text]");
        }
        turns.add(Turn.user(t.get(0).asText(), t.get(1).asText()).withIndex(turns.size()));
      }
      sessions.add(new Session(id, date, turns));
    }
    List<String> questions = new ArrayList<>();
    root.path("questions").forEach(q -> questions.add(q.asText()));
    return new ConversationFile(speakers, sessions, questions);
  }

  int turnCount() {
    return sessions.stream().mapToInt(s -> s.turns().size()).sum();
  }
}
