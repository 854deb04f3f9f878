package dev.lychee.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
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
 * Each turn is {@code [speaker, text]}; every turn is stored as a user-role turn of its speaker. A
 * turn that cannot be stored (blank text, invalid Unicode) is skipped with a line in
 * {@link #skipped()}, so that one bad line does not cost the whole file.
 *
 * @param skipped one message per skipped turn, naming the file, the session and the position
 */
record ConversationFile(List<String> speakers, List<Session> sessions, List<String> questions, List<String> skipped) {

  record Session(String id, LocalDateTime date, List<Turn> turns) {}

  static ConversationFile read(Path path) {
    if (!Files.exists(path)) {
      throw new UserError("no such file: " + path);
    }
    if (Files.isDirectory(path)) {
      throw new UserError(path + " is a directory, not a conversation file");
    }
    try (InputStream in = Files.newInputStream(path)) {
      return parse(in, path.toString());
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new UserError(path + " is not valid JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column "
          + at.getColumnNr() + ")") + ": " + readable(e.getOriginalMessage()));
    } catch (java.nio.file.AccessDeniedException e) {
      throw new UserError("cannot read " + path + " (permission denied)");
    } catch (IOException e) {
      throw new UserError("cannot read " + path + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** Jackson's message without its source-location internals. */
  static String readable(String message) {
    return message
        .replaceAll("\\s*\\(start marker at \\[Source:[^;\\]]*; line: (\\d+), column: (\\d+)\\]\\)", " (opened at line $1, column $2)")
        .replaceAll("\\s*\\[Source:[^\\]]*\\]", "")
        .strip();
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
      throw new UserError(name + ": expected an object with a \"sessions\" array");
    }
    List<String> speakers = new ArrayList<>();
    root.path("speakers").forEach(s -> speakers.add(s.asText()));
    List<Session> sessions = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    int n = 0;
    for (JsonNode s : root.path("sessions")) {
      n++;
      String id = s.path("id").asText("s" + n);
      LocalDateTime date = null;
      if (s.hasNonNull("date")) {
        try {
          date = LocalDateTime.parse(s.get("date").asText());
        } catch (DateTimeParseException e) {
          throw new UserError(name + ": session " + id + " has date '" + s.get("date").asText()
              + "'; expected ISO local date-time like 2024-03-04T19:20");
        }
      }
      List<Turn> turns = new ArrayList<>();
      int position = 0;
      for (JsonNode t : s.path("turns")) {
        position++;
        if (!t.isArray() || t.size() != 2) {
          throw new UserError(name + ": session " + id + ": each turn must be [speaker, text]");
        }
        String text = t.get(1).asText();
        if (text.isBlank()) {
          skipped.add(name + ": session " + id + ", turn " + position + " is blank; skipped");
          continue;
        }
        try {
          turns.add(Turn.user(t.get(0).asText(), text).withIndex(turns.size()));
        } catch (IllegalArgumentException e) {
          skipped.add(name + ": session " + id + ", turn " + position + " skipped: " + e.getMessage());
        }
      }
      sessions.add(new Session(id, date, turns));
    }
    List<String> questions = new ArrayList<>();
    root.path("questions").forEach(q -> questions.add(q.asText()));
    return new ConversationFile(speakers, sessions, questions, List.copyOf(skipped));
  }

  int turnCount() {
    return sessions.stream().mapToInt(s -> s.turns().size()).sum();
  }
}
