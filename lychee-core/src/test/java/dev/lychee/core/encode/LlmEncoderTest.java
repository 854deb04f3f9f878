package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.DateRange;
import dev.lychee.api.Encoding;
import dev.lychee.api.EncodingException;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ProviderException;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.core.llm.JsonExtractionException;
import dev.lychee.core.llm.O200kTokenCounter;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmEncoderTest {

  private static final String VALID = """
      {"records": [
        {"memory_type": "event", "semantic_text": "Nadia went to a community choir rehearsal on 2023-05-07.",
         "entities": ["Nadia", "community choir rehearsal"],
         "temporal": {"t_ref": "2023-05-07", "t_valid_from": "", "t_valid_to": ""},
         "tags": ["choir rehearsal", "community"], "evidence_turns": [0], "source_role": "user"},
        {"memory_type": "preference", "semantic_text": "Rafael loves painting sunsets.",
         "entities": ["Rafael"], "temporal": {"t_ref": "", "t_valid_from": "", "t_valid_to": ""},
         "tags": ["painting"], "evidence_turns": [1, 2], "source_role": "user"}
      ], "disambiguation_context": "Speakers: Nadia and Rafael."}
      """;

  private final Segment segment = Segments.of(20, Segments.MAY8,
      "Nadia|I went to a community choir rehearsal yesterday.",
      "Rafael|I love painting sunsets.",
      "Rafael|Especially over the lake.");
  private final O200kTokenCounter counter = new O200kTokenCounter();

  private LlmEncoder encoder(ScriptedChatModel model) {
    return new LlmEncoder(model, counter, EncodingConfig.defaults());
  }

  @Test
  void validAnswerBecomesRecordsWithProvenanceDatesAndAccounting() {
    ScriptedChatModel model = new ScriptedChatModel().answer(VALID);
    ReferenceContext ctx = new ReferenceContext("Raf = Rafael", List.of("Nadia is a counselor."));
    Encoding e = encoder(model).encode(segment, ctx);

    assertThat(e.records()).hasSize(2);
    MemoryRecord went = e.records().get(0);
    assertThat(went.type()).isEqualTo(MemoryType.EVENT);
    assertThat(went.namespace()).isEqualTo(Segments.NS);
    assertThat(went.evidence()).containsExactly(TurnRef.of(Segments.SESSION, 20));
    assertThat(went.session()).isEqualTo(Segments.SESSION);
    assertThat(went.segmentId()).isEqualTo(segment.id());
    assertThat(went.sourceRole()).isEqualTo(SourceRole.USER);
    assertThat(went.createdAt()).isEqualTo(Segments.MAY8);
    assertThat(went.temporal().tRef()).isEqualTo("2023-05-07");
    assertThat(went.temporal().span()).isEqualTo(DateRange.day(LocalDate.of(2023, 5, 7)));
    assertThat(went.temporal().unparsed()).isFalse();
    assertThat(went.entities()).containsExactly("Nadia", "community choir rehearsal");
    assertThat(e.records().get(1).evidence()).containsExactly(TurnRef.of(Segments.SESSION, 21), TurnRef.of(Segments.SESSION, 22));
    assertThat(e.note()).isEqualTo("Speakers: Nadia and Rafael.");
    assertThat(e.warnings()).isEmpty();

    assertThat(model.requests).hasSize(1);
    var request = model.requests.get(0);
    assertThat(request.temperature()).isZero();
    assertThat(request.jsonMode()).isTrue();
    assertThat(request.maxTokens()).isEqualTo(4096);
    assertThat(request.messages()).extracting(ChatMessage::role).containsExactly(Role.SYSTEM, Role.USER);
    String user = request.messages().get(1).content();
    assertThat(user).contains("<SESSION_DATE>2023-05-08 13:56 (Monday)</SESSION_DATE>", "Raf = Rafael",
        "- Nadia is a counselor.", "<TURN index=\"2\" role=\"user\" speaker=\"Rafael\">Especially over the lake.</TURN>");
    assertThat(e.usage()).isEqualTo(new TokenUsage(101, 10));
    assertThat(e.inputTokens()).isEqualTo(counter.count(request.messages().get(0).content()) + counter.count(user))
        .isGreaterThan(500);
  }

  @Test
  void fencedAndProseWrappedAnswersParse() {
    ScriptedChatModel model = new ScriptedChatModel()
        .answer("```json\n" + VALID + "\n```")
        .answer("Here are the records you asked for:\n" + VALID + "\nLet me know if you need more.");
    assertThat(encoder(model).encode(segment, ReferenceContext.EMPTY).records()).hasSize(2);
    assertThat(encoder(model).encode(segment, ReferenceContext.EMPTY).records()).hasSize(2);
    assertThat(model.requests).hasSize(2);
  }

  @Test
  void truncatedAnswerIsRepairedByOneRetry() {
    String truncated = VALID.substring(0, VALID.length() / 2);
    ScriptedChatModel model = new ScriptedChatModel().answer(truncated).answer(VALID);
    Encoding e = encoder(model).encode(segment, ReferenceContext.EMPTY);
    assertThat(e.records()).hasSize(2);
    assertThat(model.requests).hasSize(2);
    List<ChatMessage> retry = model.requests.get(1).messages();
    assertThat(retry).extracting(ChatMessage::role).containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER);
    assertThat(retry.get(2).content()).isEqualTo(truncated);
    assertThat(retry.get(3).content()).contains("truncated").contains("JSON");
    assertThat(e.usage()).isEqualTo(new TokenUsage(101 + 102, 20));
    long expectedInput = model.requests.stream().flatMap(r -> r.messages().stream())
        .mapToLong(m -> counter.count(m.content())).sum();
    assertThat(e.inputTokens()).isEqualTo(expectedInput);
    assertThat(e.warnings()).anyMatch(w -> w.contains("repaired by retry"));
  }

  @Test
  void garbageTwiceFailsWithTheCause() {
    ScriptedChatModel model = new ScriptedChatModel().answer("I'm sorry, I can't do that.").answer("Still no.");
    assertThatThrownBy(() -> encoder(model).encode(segment, ReferenceContext.EMPTY))
        .isInstanceOf(EncodingException.class)
        .hasMessageContaining(segment.id())
        .hasMessageContaining("1 repair attempt")
        .hasCauseInstanceOf(JsonExtractionException.class);
    assertThat(model.requests).hasSize(2);
  }

  @Test
  void emptyAnswersFailAfterTheRetry() {
    ScriptedChatModel model = new ScriptedChatModel().answer("").answer("   ");
    assertThatThrownBy(() -> encoder(model).encode(segment, ReferenceContext.EMPTY))
        .isInstanceOf(EncodingException.class).hasRootCauseMessage("the model returned no text");
  }

  @Test
  void noRetryWhenRepairsAreSwitchedOff() {
    ScriptedChatModel model = new ScriptedChatModel().answer("nope");
    LlmEncoder enc = new LlmEncoder(model, counter, EncodingConfig.builder().repairRetries(0).build());
    assertThatThrownBy(() -> enc.encode(segment, ReferenceContext.EMPTY)).isInstanceOf(EncodingException.class);
    assertThat(model.requests).hasSize(1);
  }

  @Test
  void providerFailureIsReportedAsEncodingFailure() {
    ProviderException boom = new ProviderException("http://localhost:1/v1", 503, "unavailable", null);
    ScriptedChatModel model = new ScriptedChatModel().fail(boom);
    assertThatThrownBy(() -> encoder(model).encode(segment, ReferenceContext.EMPTY))
        .isInstanceOf(EncodingException.class).hasCause(boom).hasMessageContaining("scripted");
  }

  @Test
  void wrongTypesAndShapesAreRepairedWithWarnings() {
    String messy = """
        {"records": [
          {"memory_type": "plan", "semantic_text": "Rafael will paint the lake next week.",
           "entities": "Rafael", "temporal": "next week", "tags": ["art"], "evidence_turns": ["1", 99],
           "source_role": "speaker"},
          {"memory_type": "fact", "semantic_text": "   ", "evidence_turns": [0]},
          {"memory_type": "event", "semantic_text": "Nadia joined a group.", "evidence_turns": [22]},
          {"memory_type": "FACT", "semantic_text": "Nobody knows when.", "evidence_turns": [7, -1],
           "temporal": {"t_ref": "sometime soonish", "t_valid_from": "2023-05-01"}},
          "not an object",
          {"memory_type": "preference", "semantic_text": "Rafael loves painting sunsets.", "evidence_turns": [1]},
          {"memory_type": "preference", "semantic_text": "Rafael loves painting sunsets.", "evidence_turns": [2]}
        ], "disambiguation_context": ["Raf = Rafael", "  ", "Nadia's group = community choir rehearsal"]}
        """;
    Encoding e = encoder(new ScriptedChatModel().answer(messy)).encode(segment, ReferenceContext.EMPTY);
    assertThat(e.records()).extracting(MemoryRecord::text).containsExactly(
        "Rafael will paint the lake next week.", "Nadia joined a group.", "Nobody knows when.",
        "Rafael loves painting sunsets.");
    MemoryRecord plan = e.records().get(0);
    assertThat(plan.type()).isEqualTo(MemoryType.FACT);
    assertThat(plan.entities()).containsExactly("Rafael");
    assertThat(plan.evidence()).containsExactly(TurnRef.of(Segments.SESSION, 21));
    assertThat(plan.sourceRole()).isEqualTo(SourceRole.UNKNOWN);
    assertThat(plan.temporal().tRef()).isEqualTo("next week");
    assertThat(plan.temporal().span()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 15), LocalDate.of(2023, 5, 21)));
    assertThat(e.records().get(1).evidence()).as("absolute index mapped back").containsExactly(TurnRef.of(Segments.SESSION, 22));
    MemoryRecord vague = e.records().get(2);
    assertThat(vague.evidence()).as("nothing valid: the whole segment").hasSize(3);
    assertThat(vague.temporal().unparsed()).isTrue();
    assertThat(vague.temporal().tRef()).isEqualTo("sometime soonish");
    assertThat(vague.temporal().span()).isEqualTo(DateRange.day(LocalDate.of(2023, 5, 1)));
    assertThat(e.records().get(3).evidence()).as("duplicate text: the last one wins").containsExactly(TurnRef.of(Segments.SESSION, 22));
    assertThat(e.note()).isEqualTo("Raf = Rafael\nNadia's group = community choir rehearsal");
    assertThat(e.warnings()).anyMatch(w -> w.contains("unknown memory_type 'plan'"))
        .anyMatch(w -> w.contains("blank semantic_text"))
        .anyMatch(w -> w.contains("99") && w.contains("outside the segment"))
        .anyMatch(w -> w.contains("absolute index"))
        .anyMatch(w -> w.contains("whole segment"))
        .anyMatch(w -> w.contains("kept as text"))
        .anyMatch(w -> w.contains("not an object"))
        .anyMatch(w -> w.contains("duplicate"));
  }

  @Test
  void bareListAndSingleObjectShapes() {
    String list = "[{\"memory_type\": \"fact\", \"semantic_text\": \"Nadia is a counselor.\", \"evidence_turns\": [0]}]";
    String single = "{\"memory_type\": \"fact\", \"semantic_text\": \"Nadia is a counselor.\", \"evidence_turns\": [0]}";
    String singleInRecords = "{\"records\": " + single + "}";
    for (String answer : List.of(list, single, singleInRecords)) {
      Encoding e = encoder(new ScriptedChatModel().answer(answer)).encode(segment, ReferenceContext.EMPTY);
      assertThat(e.records()).extracting(MemoryRecord::text).containsExactly("Nadia is a counselor.");
      assertThat(e.warnings()).isNotEmpty();
    }
    Encoding none = encoder(new ScriptedChatModel().answer("{\"records\": [], \"disambiguation_context\": \"\"}"))
        .encode(segment, ReferenceContext.EMPTY);
    assertThat(none.records()).isEmpty();
    assertThat(none.warnings()).isEmpty();
  }

  @Test
  void referenceContextSwitchedOffIsNotSent() {
    ScriptedChatModel model = new ScriptedChatModel().answer(VALID);
    new LlmEncoder(model, counter, EncodingConfig.builder().referenceContext(false).build())
        .encode(segment, new ReferenceContext("private note", List.of("private record")));
    assertThat(model.requests.get(0).messages().get(1).content()).doesNotContain("private").contains("(none)");
  }

  @Test
  void nameIsLlm() {
    assertThat(encoder(new ScriptedChatModel()).name()).isEqualTo("llm");
  }
}
