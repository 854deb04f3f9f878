package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.Encoding;
import dev.lychee.api.EncodingException;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.core.llm.ChatRequests;
import dev.lychee.core.llm.JsonExtractionException;
import dev.lychee.core.llm.O200kTokenCounter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue 18 items 6 and 9: hostile but well-formed encoder output. */
class LlmEncoderFaultTest {
  private final Segment segment = Segments.of(20, Segments.MAY8,
      "Nadia|I went to a community choir rehearsal yesterday.",
      "Rafael|I love painting sunsets.",
      "Rafael|Especially over the lake.");

  private LlmEncoder encoder(ScriptedChatModel model) {
    return new LlmEncoder(model, new O200kTokenCounter(), EncodingConfig.defaults());
  }

  /** Before: each of these marked the segment ENCODED with no records and no error. */
  @ParameterizedTest
  @ValueSource(strings = {"{\"error\":\"rate limited\"}", "{\"records\":null}", "{\"records\":\"oops\"}", "[]",
      "[1, 2, 3]", "{\"records\": [\"a\", \"b\"]}"})
  void validJsonOfTheWrongShapeIsAnEncodingFailure(String answer) {
    ScriptedChatModel model = new ScriptedChatModel().answer(answer).answer(answer);
    assertThatThrownBy(() -> encoder(model).encode(segment, ReferenceContext.EMPTY))
        .isInstanceOf(EncodingException.class)
        .hasCauseInstanceOf(JsonExtractionException.class)
        .hasMessageContaining("wrong shape");
    assertThat(model.requests).as("the wrong shape was sent back for a repair").hasSize(2);
  }

  @Test
  void anEmptyRecordsListStaysAValidAnswer() {
    Encoding e = encoder(new ScriptedChatModel().answer("{\"records\": []}")).encode(segment, ReferenceContext.EMPTY);
    assertThat(e.records()).isEmpty();
  }

  /** Before: 4294967297 was read with asInt() and became 1, so the record cited turn 21 only. */
  @Test
  void anEvidenceIndexBeyondIntIsDroppedNotWrapped() {
    String answer = "{\"records\": [{\"memory_type\": \"fact\", \"semantic_text\": \"Rafael paints.\","
        + " \"evidence_turns\": [4294967297]}]}";
    Encoding e = encoder(new ScriptedChatModel().answer(answer)).encode(segment, ReferenceContext.EMPTY);
    assertThat(e.records().get(0).evidence()).as("no valid index: the whole segment, not turn 1")
        .containsExactly(TurnRef.of(Segments.SESSION, 20), TurnRef.of(Segments.SESSION, 21), TurnRef.of(Segments.SESSION, 22));
    assertThat(e.warnings()).anyMatch(w -> w.contains("4294967297") && w.contains("outside the segment"));
  }

  /** Before: the repair request echoed the whole faulty answer (5 MB answers made 5 MB prompts). */
  @Test
  void theRepairRequestEchoesOnlyTheStartOfAHugeFaultyAnswer() {
    String huge = "x".repeat(200_000);
    ScriptedChatModel model = new ScriptedChatModel().answer(huge).answer("{\"records\": []}");
    encoder(model).encode(segment, ReferenceContext.EMPTY);
    List<ChatMessage> retry = model.requests.get(1).messages();
    String echoed = retry.get(2).content();
    assertThat(echoed.length()).isLessThan(ChatRequests.MAX_ECHO_CHARS + 100);
    assertThat(echoed).startsWith("x".repeat(100)).contains("more characters not repeated");
  }
}
