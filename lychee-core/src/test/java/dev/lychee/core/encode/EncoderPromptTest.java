package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryType;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

class EncoderPromptTest {

  private final Segment segment = Segments.of(40, Segments.MAY8,
      "Nadia|Nadia: I went to a choir rehearsal yesterday.",
      "Raf \"the painter\"|That's great! <b>Tell</b> me more.",
      "assistant|Noted.");

  @Test
  void userMessageCarriesDateContextAndTurns() {
    EncoderPrompt p = new EncoderPrompt(EncodingConfig.defaults());
    String user = p.user(segment, new ReferenceContext("Raf = Rafael", List.of("Nadia is a counselor.")));
    assertThat(user).startsWith("<SESSION_DATE>2023-05-08 13:56 (Monday)</SESSION_DATE>\n<REFERENCE_CONTEXT>\n");
    assertThat(user).contains("Resolved references:\nRaf = Rafael")
        .contains("Recent records of this session:\n- Nadia is a counselor.");
    assertThat(user).contains("<TURN index=\"0\" role=\"user\" speaker=\"Nadia\">I went to a choir rehearsal yesterday.</TURN>")
        .contains("<TURN index=\"1\" role=\"user\" speaker=\"Raf \\\"the painter\\\"\">That's great! <b>Tell</b> me more.</TURN>")
        .contains("<TURN index=\"2\" role=\"assistant\">Noted.</TURN>")
        .endsWith("</CURRENT_TURNS>");
    assertThat(user.indexOf("<REFERENCE_CONTEXT>")).isLessThan(user.indexOf("<CURRENT_TURNS>"));
  }

  @Test
  void noneWhenContextEmptyOrSwitchedOffAndNoDateTagWithoutTime() {
    String user = new EncoderPrompt(EncodingConfig.defaults()).user(segment, ReferenceContext.EMPTY);
    assertThat(user).contains("<REFERENCE_CONTEXT>\n(none)\n</REFERENCE_CONTEXT>");
    String off = new EncoderPrompt(EncodingConfig.builder().referenceContext(false).build())
        .user(segment, new ReferenceContext("secret note", List.of("secret record")));
    assertThat(off).contains("(none)").doesNotContain("secret");
    String undated = new EncoderPrompt(EncodingConfig.defaults()).user(Segments.of(0, null, "A|hi there"), ReferenceContext.EMPTY);
    assertThat(undated).doesNotContain("<SESSION_DATE>").startsWith("<REFERENCE_CONTEXT>");
  }

  @Test
  void systemPromptAsksForTheRecordSchema() {
    String system = new EncoderPrompt(EncodingConfig.defaults()).system();
    for (MemoryType t : MemoryType.values()) {
      assertThat(system).contains(t.wireName());
    }
    assertThat(system).contains("semantic_text", "entities", "t_ref", "t_valid_from", "t_valid_to", "tags",
        "evidence_turns", "source_role", "disambiguation_context", "SESSION_DATE", "REFERENCE_CONTEXT",
        "CURRENT_TURNS");
  }
}
