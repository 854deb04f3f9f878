package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Encoding;
import dev.lychee.api.EncodingException;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.llm.JsonExtraction;
import dev.lychee.core.llm.JsonExtractionException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The "summary-level records" ablation: one LLM call per segment writes one free-text summary,
 * stored as a single record with no type distinction (always {@code fact}), no entities, tags or
 * dates, citing every turn of the segment. It measures what typed, atomic, dated records buy over
 * the summaries that session-summary memories keep.
 */
public final class SummaryEncoder implements Encoder {
  static final String SYSTEM = """
      Summarise a piece of conversation for a memory that will be searched months later. Write \
      three to six plain sentences covering what the speakers said about themselves and each other: \
      facts, plans, events, preferences. Use the speakers' names. Reply with one JSON object and \
      nothing else: {"summary": "..."}.""";
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd (EEEE)", Locale.ROOT);

  private final ChatModel model;

  public SummaryEncoder(ChatModel model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  @Override
  public Encoding encode(Segment segment, ReferenceContext context) {
    StringBuilder user = new StringBuilder();
    LocalDateTime date = segment.turns().get(0).time();
    if (date != null) {
      user.append("Conversation date: ").append(date.format(DATE)).append("\n\n");
    }
    for (RawTurn t : segment.turns()) {
      user.append(t.content()).append('\n');
    }
    ChatResult r = model.chat(new ChatRequest(
        List.of(ChatMessage.system(SYSTEM), ChatMessage.user(user.toString())), 0.0, 0, true));
    String summary = summaryOf(r.text());
    MemoryRecord record = new MemoryRecord(null, segment.namespace(), MemoryType.FACT, summary, List.of(),
        List.of(), TemporalScope.NONE, segment.turns().stream().map(RawTurn::ref).toList(), segment.session(),
        segment.id(), SourceRole.UNKNOWN, date);
    return new Encoding(List.of(record), "", r.usage(), 0, List.of());
  }

  private static String summaryOf(String text) {
    String summary;
    try {
      JsonNode n = JsonExtraction.extract(text);
      summary = n.path("summary").asText("");
    } catch (JsonExtractionException e) {
      summary = text == null ? "" : text.strip();
    }
    if (summary.isBlank()) {
      throw new EncodingException("the summary encoder's reply held no summary");
    }
    return summary.strip();
  }

  @Override
  public String name() {
    return "summary";
  }
}
