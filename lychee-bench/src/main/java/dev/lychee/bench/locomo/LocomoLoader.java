package dev.lychee.bench.locomo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads the single-file LoCoMo layout (a JSON list of samples; see the data README).
 *
 * <p>Sessions are counted by the {@code session_N} lists, never by the date keys (conv-26 has
 * dates for sessions that hold no dialogue). Only categories 1-4 are kept; their evidence is
 * cleaned with {@link EvidenceIds}, and questions left with no gold turn are counted as skipped.
 */
public final class LocomoLoader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LocomoLoader() {}

  public static List<LocomoConversation> load(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return load(in);
    }
  }

  public static List<LocomoConversation> load(InputStream in) throws IOException {
    JsonNode root = JSON.readTree(in);
    if (root == null || !root.isArray()) {
      throw new IOException("a LoCoMo file is a JSON list of samples");
    }
    List<LocomoConversation> out = new ArrayList<>();
    for (JsonNode sample : root) {
      out.add(conversation(sample));
    }
    return out;
  }

  private static LocomoConversation conversation(JsonNode sample) throws IOException {
    String sampleId = text(sample, "sample_id");
    JsonNode conv = sample.get("conversation");
    if (conv == null || !conv.isObject()) {
      throw new IOException(sampleId + ": no conversation object");
    }
    List<LocomoSession> sessions = new ArrayList<>();
    for (int n = 1; conv.has("session_" + n); n++) {
      JsonNode turns = conv.get("session_" + n);
      JsonNode date = conv.get("session_" + n + "_date_time");
      if (date == null || !date.isTextual()) {
        throw new IOException(sampleId + ": session_" + n + " has no date");
      }
      sessions.add(session(sampleId, n, LocomoDates.parse(date.asText()), turns));
    }
    LocomoConversation shell = new LocomoConversation(sampleId, sessions, List.of(), 0);
    Set<DiaId> existing = shell.turnIds();
    List<LocomoQuestion> questions = new ArrayList<>();
    int skipped = 0;
    JsonNode qa = sample.get("qa");
    if (qa != null) {
      for (int i = 0; i < qa.size(); i++) {
        JsonNode q = qa.get(i);
        int category = q.path("category").asInt(0);
        if (category < 1 || category > 4) {
          continue;
        }
        List<String> raw = new ArrayList<>();
        q.path("evidence").forEach(e -> raw.add(e.asText()));
        List<DiaId> gold = EvidenceIds.clean(raw, existing);
        if (gold.isEmpty()) {
          skipped++;
          continue;
        }
        JsonNode answer = q.get("answer");
        questions.add(new LocomoQuestion(i, q.path("question").asText(),
            answer == null || answer.isNull() ? "" : answer.asText(), category, gold));
      }
    }
    return new LocomoConversation(sampleId, sessions, questions, skipped);
  }

  private static LocomoSession session(String sampleId, int n, LocalDateTime date, JsonNode turns)
      throws IOException {
    if (!turns.isArray()) {
      throw new IOException(sampleId + ": session_" + n + " is not a list");
    }
    List<LocomoTurn> out = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      JsonNode t = turns.get(i);
      String speaker = t.path("speaker").asText();
      StringBuilder text = new StringBuilder(speaker).append(": ").append(t.path("text").asText());
      JsonNode caption = t.get("blip_caption");
      if (caption != null && caption.isTextual() && !caption.asText().isBlank()) {
        text.append(" [shares photo: ").append(caption.asText()).append(']');
      }
      // The README checks that every dia id matches its position; the position is the truth here.
      out.add(new LocomoTurn(new DiaId(n, i + 1), speaker, text.toString()));
    }
    return new LocomoSession(n, date, out);
  }

  private static String text(JsonNode node, String field) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new IOException("sample without " + field);
    }
    return v.asText();
  }
}
