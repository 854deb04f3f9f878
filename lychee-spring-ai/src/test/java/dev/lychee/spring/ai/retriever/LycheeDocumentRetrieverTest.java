package dev.lychee.spring.ai.retriever;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Checks;
import dev.lychee.api.Question;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.LongTalk;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.WarnLog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;

/** The retriever's token budget; the RAG wiring itself is covered by SpringAiAppTest. */
class LycheeDocumentRetrieverTest {

  @Test
  void aTokenBudgetReachesRecallAndShrinksTheDocuments() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      LongTalk.tell(lychee, "ann");
      Query q = Query.builder().text("What did my sister and I do in Lisbon?")
          .context(Map.of(ChatMemory.CONVERSATION_ID, "ann")).build();
      ConversationScopeResolver resolver = ConversationScopeResolver.byUserThenConversation();
      List<Document> unbounded = new LycheeDocumentRetriever(lychee, resolver, 10).retrieve(q);
      List<Document> budgeted = new LycheeDocumentRetriever(lychee, resolver, 10, Question.MIN_TOKEN_BUDGET).retrieve(q);
      assertThat(unbounded).isNotEmpty();
      assertThat(chars(budgeted)).isLessThan(chars(unbounded));
    }
  }

  private static int chars(List<Document> docs) {
    return docs.stream().mapToInt(d -> d.getText().length()).sum();
  }

  /**
   * A 20,000-char message (a pasted document after the question) is over the question limit: the
   * retriever recalls on its head and tail instead of throwing into the host's chat call, and a
   * message Lychee cannot ask about at all gives no documents and one WARN.
   */
  @Test
  void aMessageOverTheQuestionLimitIsRecalledOnItsEnds() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build();
         WarnLog warnings = WarnLog.of(LycheeDocumentRetriever.class)) {
      LongTalk.tell(lychee, "ann");
      String pasted = "What did my sister and I do in Lisbon? Here are my notes:\n" + "la ".repeat(6_700);
      assertThat(pasted.length()).isGreaterThan(20_000).isGreaterThan(Checks.MAX_QUESTION_CHARS);
      LycheeDocumentRetriever retriever = new LycheeDocumentRetriever(lychee);
      List<Document> found = retriever.retrieve(Query.builder().text(pasted)
          .context(Map.of(ChatMemory.CONVERSATION_ID, "ann")).build());
      assertThat(found).isNotEmpty().anySatisfy(d -> assertThat(d.getText()).contains("Lisbon"));
      assertThat(warnings.lines()).isEmpty();

      List<Document> none = retriever.retrieve(Query.builder().text("Lisbon \uD800?")
          .context(Map.of(ChatMemory.CONVERSATION_ID, "ann")).build());
      assertThat(none).isEmpty();
      assertThat(warnings.lines()).singleElement().asString().contains("answering without memory")
          .contains("surrogate");
      // a namespace Lychee refuses is the application's mapping, not the user's text: still an error
      assertThatThrownBy(() -> retriever.retrieve(Query.builder().text("Lisbon?")
          .context(Map.of(ChatMemory.CONVERSATION_ID, "bad\u0001id")).build()))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    }
  }

  @Test
  void anOutOfRangeTokenBudgetFailsAtConstructionNamingTheRange() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      ConversationScopeResolver resolver = ConversationScopeResolver.byUserThenConversation();
      assertThatThrownBy(() -> new LycheeDocumentRetriever(lychee, resolver, 8, Question.MAX_TOKEN_BUDGET + 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tokenBudget must be between " + Question.MIN_TOKEN_BUDGET + " and "
              + Question.MAX_TOKEN_BUDGET);
    }
  }
}
