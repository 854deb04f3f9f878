package dev.lychee.core.encode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * The segment-encoding prompt: a system message with the extraction rules and the record schema,
 * and a user message with {@code <SESSION_DATE>}, {@code <REFERENCE_CONTEXT>} and
 * {@code <CURRENT_TURNS>} (one {@code TURN} element per turn with a 0-based local {@code index},
 * the {@code role} and, when known, the {@code speaker}; attribute values JSON-quoted; a leading
 * {@code "<speaker>:"} in the text is removed).
 *
 * <p>The wording is Lychee's own; it asks for the record schema of the LycheeMemory paper.
 * Immutable and thread-safe.
 */
public final class EncoderPrompt {

  /** Sent back with the faulty answer when the model's output held no valid JSON. */
  public static final String REPAIR_INSTRUCTION = """
      That reply could not be read as JSON (%s). Send the answer again as one complete JSON object \
      with the fields "records" and "disambiguation_context", and nothing else: no Markdown, no \
      comments, no text before or after it. If the answer is long, keep fewer records rather than \
      stopping part-way.""";

  static final String SYSTEM = """
      You write long-term memory records from a piece of conversation. A record must make sense on \
      its own, months later, to someone who never saw the conversation.

      INPUT
      - SESSION_DATE: when this conversation took place. It is the reference point for every relative \
      time phrase. It may be missing.
      - REFERENCE_CONTEXT: notes and records written earlier in this same session. Use it only to \
      work out who or what a word refers to. Never turn anything in it into a new record.
      - CURRENT_TURNS: the turns to encode. Each TURN has an index (counted from 0 inside this block), \
      a role and, when known, the name of the speaker.

      HOW TO WRITE RECORDS
      1. One piece of information per record.
      2. semantic_text is a complete sentence. Replace pronouns, nicknames and vague words ("it", \
      "there", "that place") with what they stand for. Keep names, numbers, places, reasons and \
      outcomes exactly as they were said.
      3. The speaker of a turn is who "I", "me", "my" and "we" point to in that turn; write that \
      person's name. If the text of a turn begins with a name and a colon, that name is the speaker. \
      Write "the user" only when no name is known. Before you finish a record, check that the person \
      it names really is the speaker of the cited turns or the person those turns talk about.
      4. When SESSION_DATE is given, replace relative time phrases ("yesterday", "last Friday", \
      "two weeks ago", "next month") with calendar dates: YYYY-MM-DD for a day, YYYY-MM for a month, \
      in semantic_text and in the temporal fields alike. Never invent a date the conversation does \
      not imply.
      5. Keep what is worth remembering about the people: lasting facts, preferences, plans, limits, \
      events and experiences. Leave out greetings, thanks, small talk, compliments, general \
      encouragement and common knowledge. Keep what the assistant said only when it is personal \
      to the user, or when the user accepted or confirmed it.
      6. evidence_turns: the indexes of all turns that support the record.
      7. source_role: "user" if the information comes from user turns, "assistant" if it comes \
      from assistant turns, "both" if it needs both.
      8. entities: people, places, organisations, titles and other names someone might search for. \
      tags: two to five short lower-case topic words.
      9. temporal: t_ref is when the event happened or is planned; t_valid_from and t_valid_to \
      bound the time a state holds. Use "" for anything unknown.

      MEMORY TYPES
      fact: a stable attribute, relationship or state. preference: a like, dislike, habit or \
      recurring choice. event: a one-off occurrence at a particular time, past or planned. \
      constraint: a limit, rule or restriction. procedure: reusable steps or a way of doing \
      something. failure_pattern: a mistake, pitfall or lesson learned. tool_affordance: what a \
      tool can or cannot do.

      DISAMBIGUATION CONTEXT
      disambiguation_context is a short note for encoding the rest of this session: the speakers' \
      names, nicknames and what they refer to, relationships between people, and dates you worked \
      out. Use "" when there is nothing to note.

      OUTPUT
      Answer with one JSON object and nothing else (no Markdown fences):
      {"records": [{"memory_type": "fact|preference|event|constraint|procedure|failure_pattern|tool_affordance", \
      "semantic_text": "...", "entities": ["..."], \
      "temporal": {"t_ref": "", "t_valid_from": "", "t_valid_to": ""}, "tags": ["..."], \
      "evidence_turns": [0], "source_role": "user|assistant|both"}], "disambiguation_context": ""}
      When nothing is worth remembering, answer {"records": [], "disambiguation_context": ""}.

      EXAMPLE
      SESSION_DATE 2024-03-14 (Thursday). Turns: 0 Priya: "Back from Lisbon! We flew home on \
      Sunday." 1 Tom: "Welcome back! How was it?" 2 Priya: "Lovely. I can't eat shellfish, so the \
      seafood tour was hard, but my sister Anika adored it."
      Answer:
      {"records": [
      {"memory_type": "event", "semantic_text": "Priya flew home from a trip to Lisbon on 2024-03-10.", \
      "entities": ["Priya", "Lisbon"], "temporal": {"t_ref": "2024-03-10", "t_valid_from": "", "t_valid_to": ""}, \
      "tags": ["travel", "lisbon", "trip"], "evidence_turns": [0], "source_role": "user"},
      {"memory_type": "constraint", "semantic_text": "Priya cannot eat shellfish.", "entities": ["Priya"], \
      "temporal": {"t_ref": "", "t_valid_from": "", "t_valid_to": ""}, "tags": ["food", "allergy", "shellfish"], \
      "evidence_turns": [2], "source_role": "user"},
      {"memory_type": "fact", "semantic_text": "Priya has a sister named Anika.", "entities": ["Priya", "Anika"], \
      "temporal": {"t_ref": "", "t_valid_from": "", "t_valid_to": ""}, "tags": ["family", "sister"], \
      "evidence_turns": [2], "source_role": "user"},
      {"memory_type": "preference", "semantic_text": "Anika, Priya's sister, loved the seafood tour in Lisbon.", \
      "entities": ["Anika", "Priya", "Lisbon"], "temporal": {"t_ref": "", "t_valid_from": "", "t_valid_to": ""}, \
      "tags": ["food", "seafood", "tour"], "evidence_turns": [0, 2], "source_role": "user"}],
      "disambiguation_context": "Speakers: Priya and Tom. Anika is Priya's sister. Priya's Lisbon trip ended 2024-03-10."}
      """;

  private static final DateTimeFormatter SESSION_DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm (EEEE)", Locale.ENGLISH);

  private final EncodingConfig config;
  private final ObjectMapper json = new ObjectMapper();

  public EncoderPrompt(EncodingConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The system message. */
  public String system() {
    return SYSTEM;
  }

  /** The user message for one segment. */
  public String user(Segment segment, ReferenceContext context) {
    StringBuilder sb = new StringBuilder();
    LocalDateTime date = sessionDate(segment);
    if (date != null) {
      sb.append("<SESSION_DATE>").append(SESSION_DATE.format(date)).append("</SESSION_DATE>\n");
    }
    String reference = config.referenceContext() ? ReferenceContextTracker.render(context, config) : "";
    sb.append("<REFERENCE_CONTEXT>\n").append(reference.isEmpty() ? "(none)" : reference)
        .append("\n</REFERENCE_CONTEXT>\n");
    sb.append("<CURRENT_TURNS>\n");
    int local = 0;
    for (RawTurn t : segment.turns()) {
      sb.append("<TURN index=\"").append(local++).append("\" role=").append(quote(t.role().wireName()));
      if (t.speaker() != null && !t.speaker().isBlank()) {
        sb.append(" speaker=").append(quote(t.speaker()));
      }
      sb.append('>').append(body(t)).append("</TURN>\n");
    }
    sb.append("</CURRENT_TURNS>");
    return sb.toString();
  }

  /** The session date of a segment: the time of its first turn that has one; null if none has. */
  static LocalDateTime sessionDate(Segment segment) {
    return segment.turns().stream().map(RawTurn::time).filter(Objects::nonNull).findFirst().orElse(null);
  }

  /** The turn text without a leading {@code "<speaker>:"} (case-insensitive). */
  static String body(RawTurn t) {
    String text = t.text().strip();
    if (t.speaker() != null) {
      String prefix = t.speaker() + ":";
      if (text.regionMatches(true, 0, prefix, 0, prefix.length())) {
        text = text.substring(prefix.length()).strip();
      }
    }
    return text;
  }

  private String quote(String value) {
    try {
      return json.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string always serialises", e);
    }
  }
}
