package dev.lychee.bench.longmemeval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.Role;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the official LongMemEval files ({@code longmemeval_s.json}, {@code _m}, {@code _oracle}):
 * a JSON list of items with {@code question_id}, {@code question_type}, {@code question},
 * {@code answer}, {@code question_date}, {@code haystack_session_ids}, {@code haystack_dates},
 * {@code haystack_sessions} (lists of {@code {role, content[, has_answer]}}) and
 * {@code answer_session_ids}.
 */
public final class LongMemEvalLoader {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The dataset's date form, for example {@code 2023/05/20 (Sat) 02:21}. */
  private static final DateTimeFormatter DATE = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern("yyyy/MM/dd (EEE) HH:mm")
      .toFormatter(Locale.ENGLISH);

  private LongMemEvalLoader() {}

  public static List<LongMemEvalItem> load(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return load(in);
    }
  }

  public static List<LongMemEvalItem> load(InputStream in) throws IOException {
    JsonNode root = JSON.readTree(in);
    if (root == null || !root.isArray()) {
      throw new IOException("a LongMemEval file is a JSON list of questions");
    }
    List<LongMemEvalItem> out = new ArrayList<>();
    for (JsonNode item : root) {
      out.add(item(item));
    }
    return out;
  }

  private static LongMemEvalItem item(JsonNode n) throws IOException {
    String id = n.path("question_id").asText(null);
    if (id == null) {
      throw new IOException("an item without question_id");
    }
    JsonNode ids = n.path("haystack_session_ids");
    JsonNode dates = n.path("haystack_dates");
    JsonNode sessions = n.path("haystack_sessions");
    if (ids.size() != sessions.size()) {
      throw new IOException(id + ": " + ids.size() + " session ids for " + sessions.size() + " sessions");
    }
    List<LmeSession> out = new ArrayList<>();
    for (int i = 0; i < sessions.size(); i++) {
      List<LmeTurn> turns = new ArrayList<>();
      for (JsonNode t : sessions.get(i)) {
        turns.add(new LmeTurn(Role.parse(t.path("role").asText("user")), t.path("content").asText(""),
            t.path("has_answer").asBoolean(false)));
      }
      out.add(new LmeSession(ids.get(i).asText(), date(dates.path(i).asText(null)), turns));
    }
    List<String> answerSessions = new ArrayList<>();
    n.path("answer_session_ids").forEach(a -> answerSessions.add(a.asText()));
    JsonNode answer = n.get("answer");
    return new LongMemEvalItem(id, n.path("question_type").asText(""), n.path("question").asText(""),
        answer == null || answer.isNull() ? "" : answer.asText(), date(n.path("question_date").asText(null)),
        out, answerSessions);
  }

  /** Parses a dataset date; null when absent or in another form (dates are context, not keys). */
  static LocalDateTime date(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return LocalDateTime.parse(value.trim(), DATE);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
