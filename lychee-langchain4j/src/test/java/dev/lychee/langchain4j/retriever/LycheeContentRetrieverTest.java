package dev.lychee.langchain4j.retriever;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import dev.lychee.api.Checks;
import dev.lychee.api.Question;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.read.QuestionText;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.LongTalk;
import dev.lychee.langchain4j.WarnLog;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class LycheeContentRetrieverTest {

  private static Query query(String text, Object memoryId) {
    return Query.from(text, Metadata.from(UserMessage.from(text), memoryId, List.of()));
  }

  @Test
  void contentCarriesScoreAndProvenanceAndStaysInTheMemoryIdsNamespace() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      lychee.append("ann", "s1", LocalDateTime.parse("2024-05-01T10:00"),
          List.of(Turn.user("Ann", "My sister Zoe moved to Lisbon."), Turn.assistant("Nice!")));
      lychee.append("ben", "s1", List.of(Turn.user("Ben", "My sister Ana moved to Porto."), Turn.assistant("Nice!")));
      LycheeContentRetriever retriever = LycheeContentRetriever.builder(lychee).maxResults(3).build();

      List<Content> found = retriever.retrieve(query("Where did my sister move?", "ann"));
      assertThat(found).isNotEmpty().hasSizeLessThanOrEqualTo(3);
      assertThat(found).allSatisfy(c -> {
        assertThat(c.textSegment().text()).doesNotContain("Porto");
        assertThat((Double) c.metadata().get(ContentMetadata.SCORE)).isBetween(0.0, 1.0);
        assertThat(c.textSegment().metadata().getString(EvidenceMetadata.TURNS)).startsWith("s1:");
        assertThat(c.textSegment().metadata().getString(EvidenceMetadata.KIND)).isIn("record", "raw_turn", "window", "other");
      });
      assertThat(found).anySatisfy(c -> assertThat(c.textSegment().text()).contains("Lisbon"));
      assertThat(found).anySatisfy(c ->
          assertThat(c.textSegment().metadata().getString(EvidenceMetadata.DATE)).startsWith("2024-05-01"));

      assertThat(retriever.retrieve(query("Where did my sister move?", "nobody"))).isEmpty();
      assertThatThrownBy(() -> retriever.retrieve(Query.from("Where?")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("@MemoryId");
      assertThatThrownBy(() -> LycheeContentRetriever.builder(lychee).maxResults(0).build())
          .hasMessageContaining("maxResults");
    }
  }

  @Test
  void aTokenBudgetReachesRecallAndShrinksTheContent() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      LongTalk.tell(lychee, "ann");
      Query q = query("What did my sister and I do in Lisbon?", "ann");
      List<Content> unbounded = LycheeContentRetriever.builder(lychee).maxResults(10).build().retrieve(q);
      List<Content> budgeted = LycheeContentRetriever.builder(lychee).maxResults(10)
          .tokenBudget(Question.MIN_TOKEN_BUDGET).build().retrieve(q);
      assertThat(unbounded).isNotEmpty();
      assertThat(chars(budgeted)).isLessThan(chars(unbounded));
    }
  }

  private static int chars(List<Content> contents) {
    return contents.stream().mapToInt(c -> c.textSegment().text().length()).sum();
  }

  /**
   * A 20,000-char user message (a pasted document after the question) is over the question limit:
   * the retriever recalls on its head and tail instead of throwing into {@code AiServices}' call,
   * and a message Lychee cannot ask about at all gives no content and one WARN.
   */
  @Test
  void aMessageOverTheQuestionLimitIsRecalledOnItsEnds() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build();
         WarnLog warnings = WarnLog.of(LycheeContentRetriever.class)) {
      LongTalk.tell(lychee, "ann");
      String pasted = "What did my sister and I do in Lisbon? Here are my notes:\n" + "la ".repeat(6_700);
      assertThat(pasted.length()).isGreaterThan(20_000).isGreaterThan(Checks.MAX_QUESTION_CHARS);
      LycheeContentRetriever retriever = LycheeContentRetriever.builder(lychee).build();
      List<Content> found = retriever.retrieve(query(pasted, "ann"));
      assertThat(found).isNotEmpty().anySatisfy(c -> assertThat(c.textSegment().text()).contains("Lisbon"));
      assertThat(warnings.lines()).isEmpty();
      String excerpt = QuestionText.of(pasted);
      assertThat(excerpt).hasSize(2 * QuestionText.LONG_MESSAGE_HALF + "\n...\n".length())
          .startsWith(pasted.substring(0, 100)).endsWith(pasted.substring(pasted.length() - 100));

      assertThat(retriever.retrieve(query("Lisbon \uD800?", "ann"))).isEmpty();
      assertThat(warnings.lines()).singleElement().asString().contains("answering without memory")
          .contains("surrogate");
      // a namespace Lychee refuses is the application's mapping, not the user's text: still an error
      assertThatThrownBy(() -> retriever.retrieve(query("Lisbon?", "bad\u0001id")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    }
  }

  @Test
  void anOutOfRangeTokenBudgetFailsAtBuildNamingTheRange() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      assertThatThrownBy(() -> LycheeContentRetriever.builder(lychee).tokenBudget(Question.MIN_TOKEN_BUDGET - 1).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tokenBudget must be between " + Question.MIN_TOKEN_BUDGET + " and "
              + Question.MAX_TOKEN_BUDGET);
      assertThatThrownBy(() -> LycheeContentRetriever.builder(lychee).tokenBudget(Question.MAX_TOKEN_BUDGET + 1).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tokenBudget");
    }
  }
}
