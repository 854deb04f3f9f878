package dev.lychee.spring.ai.retriever;

import dev.lychee.api.Checks;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.core.Lychee;
import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.EvidenceText;
import dev.lychee.core.read.QuestionText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * A {@link DocumentRetriever} for Spring AI's {@code RetrievalAugmentationAdvisor}: Lychee evidence
 * as documents (text, {@link Document#getScore() score}, provenance in the {@link EvidenceText}
 * metadata keys). The namespace comes from the query context, which the RAG advisor fills from the
 * advisor parameters ({@code ChatMemory.CONVERSATION_ID}, {@link ConversationScopeResolver#USER_ID}).
 * A query longer than a question may be is recalled on a bounded excerpt ({@link QuestionText}); one
 * Lychee cannot ask about at all yields no documents and one WARN line. Neither fails the call.
 */
public final class LycheeDocumentRetriever implements DocumentRetriever {
  private static final Logger LOG = LoggerFactory.getLogger(LycheeDocumentRetriever.class);

  private final Lychee lychee;
  private final ConversationScopeResolver resolver;
  private final int maxResults;
  private final int tokenBudget;

  /** No token budget: at most {@code maxResults} documents. */
  public LycheeDocumentRetriever(Lychee lychee, ConversationScopeResolver resolver, int maxResults) {
    this(lychee, resolver, maxResults, Question.NO_TOKEN_BUDGET);
  }

  /**
   * A retriever whose documents together take at most {@code tokenBudget} tokens of the prompt, so
   * that memory cannot crowd out the rest of the context window. With a budget, {@code maxResults}
   * is the least search depth and the number of documents is whatever fits; see {@link Question}.
   *
   * @param lychee the memory to recall from
   * @param resolver picks the namespace from the query context
   * @param maxResults documents per query without a budget, the least search depth with one (at least 1)
   * @param tokenBudget in [{@link Question#MIN_TOKEN_BUDGET}, {@link Question#MAX_TOKEN_BUDGET}], or
   *     {@link Question#NO_TOKEN_BUDGET} for none
   * @throws IllegalArgumentException if {@code maxResults} or {@code tokenBudget} is out of range
   */
  public LycheeDocumentRetriever(Lychee lychee, ConversationScopeResolver resolver, int maxResults,
                                 int tokenBudget) {
    this.lychee = Objects.requireNonNull(lychee, "lychee");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    if (maxResults < 1) {
      throw new IllegalArgumentException("maxResults must be >= 1: " + maxResults);
    }
    // fail when the retriever is wired, not on the first query
    Question.checkTokenBudget(tokenBudget, "tokenBudget");
    this.maxResults = maxResults;
    this.tokenBudget = tokenBudget;
  }

  /** The default resolver, 8 results. */
  public LycheeDocumentRetriever(Lychee lychee) {
    this(lychee, ConversationScopeResolver.byUserThenConversation(), 8);
  }

  @Override
  public List<Document> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    if (query.text() == null || query.text().isBlank()) {
      return List.of();
    }
    ConversationScope scope = resolver.resolve(query.context());
    String text = QuestionText.of(query.text());
    try {
      Checks.question(text);
    } catch (IllegalArgumentException e) {
      // a text Lychee cannot ask about (a lone surrogate, say) must not fail the host's chat call;
      // a bad namespace still does (below): that is the application's mapping, not the user's text
      LOG.warn("cannot recall for a message in namespace '{}', answering without memory: {}", scope.namespace(),
          e.getMessage());
      return List.of();
    }
    Question question = new Question(scope.namespace(), text, maxResults, null, tokenBudget);
    List<Document> out = new ArrayList<>();
    for (Evidence e : lychee.recall(question).evidence()) {
      out.add(Document.builder().id(e.candidate().id()).text(e.text())
          .metadata(EvidenceText.metadata(e)).score(e.score()).build());
    }
    return out;
  }
}
