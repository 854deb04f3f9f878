package dev.lychee.core.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class JsonExtractionTest {

  @Test
  void plainObject() {
    assertThat(JsonExtraction.extract("{\"a\": 1}").get("a").asInt()).isEqualTo(1);
  }

  @Test
  void fencedWithLanguageTag() {
    JsonNode n = JsonExtraction.extract("Here you go:\n```json\n{\"records\": [], \"x\": \"}\"}\n```\nDone.");
    assertThat(n.get("x").asText()).isEqualTo("}");
  }

  @Test
  void fencedWithoutLanguageAndUnclosedFence() {
    assertThat(JsonExtraction.extract("```\n[1, 2]\n```").size()).isEqualTo(2);
    assertThat(JsonExtraction.extract("```json\n{\"a\": [1, 2]}").get("a").size()).isEqualTo(2);
  }

  @Test
  void proseBeforeAndAfterAndBracketsInsideStrings() {
    JsonNode n = JsonExtraction.extract("Sure! [note] The result is {\"t\": \"a { tricky ] value\", \"n\": 2} hope it helps {");
    assertThat(n.get("n").asInt()).isEqualTo(2);
    assertThat(n.get("t").asText()).isEqualTo("a { tricky ] value");
  }

  @Test
  void trailingCommaAndCommentsTolerated() {
    assertThat(JsonExtraction.extract("{\"a\": [1, 2,], // two\n}").get("a").size()).isEqualTo(2);
  }

  @Test
  void emptyOutputFailsClearly() {
    assertThatThrownBy(() -> JsonExtraction.extract("   ")).isInstanceOf(JsonExtractionException.class)
        .hasMessageContaining("no text");
    assertThatThrownBy(() -> JsonExtraction.extract(null)).isInstanceOf(JsonExtractionException.class);
  }

  @Test
  void truncatedOutputFailsAsTruncated() {
    assertThatThrownBy(() -> JsonExtraction.extract("{\"records\": [{\"semantic_text\": \"Nadia went"))
        .isInstanceOf(JsonExtractionException.class).hasMessageContaining("truncated");
  }

  @Test
  void innerObjectOfATruncatedAnswerIsNotTheAnswer() {
    assertThatThrownBy(() -> JsonExtraction.extract(
        "{\"records\": [{\"temporal\": {\"t_ref\": \"\"}, \"semantic_text\": \"Nadia"))
        .isInstanceOf(JsonExtractionException.class).hasMessageContaining("truncated");
  }

  @Test
  void garbageFailsAsNoJson() {
    assertThatThrownBy(() -> JsonExtraction.extract("I cannot help with that."))
        .isInstanceOf(JsonExtractionException.class).hasMessageContaining("no JSON");
    assertThatThrownBy(() -> JsonExtraction.extract("{this is: not json}"))
        .isInstanceOf(JsonExtractionException.class).hasMessageContaining("no valid JSON");
  }

  @Test
  void elementsAcceptsASingleObjectWhereAListWasExpected() {
    JsonNode single = JsonExtraction.extract("{\"records\": {\"semantic_text\": \"x\"}}");
    assertThat(JsonExtraction.elements(single.get("records"))).hasSize(1);
    assertThat(JsonExtraction.elements(single.get("missing"))).isEmpty();
    assertThat(JsonExtraction.elements(JsonExtraction.extract("[{}, {}, {}]"))).hasSize(3);
  }

  @Test
  void textOfScalarsArraysAndNulls() {
    JsonNode n = JsonExtraction.extract("{\"s\": \" a \", \"i\": 3, \"l\": [\"x\", \"\", 4], \"z\": null}");
    assertThat(JsonExtraction.text(n.get("s"))).isEqualTo(" a ");
    assertThat(JsonExtraction.text(n.get("i"))).isEqualTo("3");
    assertThat(JsonExtraction.text(n.get("l"))).isEqualTo("x; 4");
    assertThat(JsonExtraction.text(n.get("z"))).isEmpty();
    assertThat(JsonExtraction.text(n.get("nope"))).isEmpty();
  }
}
