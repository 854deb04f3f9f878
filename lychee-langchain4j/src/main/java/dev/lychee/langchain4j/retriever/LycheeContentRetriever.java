package dev.lychee.langchain4j.retriever;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.lychee.api.Checks;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.core.Lychee;
import dev.lychee.core.read.QuestionText;
import dev.lychee.langchain4j.MemoryScope;
import dev.lychee.langchain4j.MemoryScopeResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A langchain4j {@link ContentRetriever} that recalls Lychee evidence for the user's message. The
 * namespace comes from the query's chat memory id through a {@link MemoryScopeResolver}, so each
 * {@code @MemoryId} reads only its own memory. Each evidence item becomes one {@link Content}
 * whose {@link ContentMetadata#SCORE} is Lychee's final score and whose segment metadata carries
 * the provenance (see {@link EvidenceMetadata}).
 *
 * <p>A user message longer than a question may be ({@link Checks#MAX_QUESTION_CHARS}) is recalled
 * on its first and last 2,000 characters ({@link QuestionText}); a message Lychee cannot ask about at all yields no
 * content and one WARN line. Neither fails the chat call.
 */
public final class LycheeContentRetriever implements ContentRetriever {
  private static final Logger LOG = LoggerFactory.getLogger(LycheeContentRetriever.class);

  private final Lychee lychee;
  private final MemoryScopeResolver resolver;
  private final int maxResults;
  private final double minScore;
  private final int tokenBudget;

  private LycheeContentRetriever(Builder b) {
    this.lychee = b.lychee;
    this.resolver = b.resolver;
    this.maxResults = b.maxResults;
    this.minScore = b.minScore;
    this.tokenBudget = b.tokenBudget;
  }

  public static Builder builder(Lychee lychee) {
    return new Builder(lychee);
  }

  @Override
  public List<Content> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    if (query.text() == null || query.text().isBlank()) {
      return List.of(); // nothing to look up; the model still gets the user's message
    }
    Object memoryId = query.metadata() == null ? null : query.metadata().chatMemoryId();
    MemoryScope scope = resolver.resolve(memoryId);
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
    Recall recall = lychee.recall(new Question(scope.namespace(), text, maxResults, null, tokenBudget));
    List<Content> out = new ArrayList<>();
    for (Evidence e : recall.evidence()) {
      if (e.score() < minScore) {
        continue;
      }
      TextSegment segment = TextSegment.from(e.text(), EvidenceMetadata.of(e));
      out.add(Content.from(segment, Map.of(ContentMetadata.SCORE, e.score())));
    }
    return out;
  }

  /** Configures a {@link LycheeContentRetriever}. */
  public static final class Builder {
    private final Lychee lychee;
    private MemoryScopeResolver resolver = MemoryScopeResolver.perMemoryId();
    private int maxResults = 8;
    private double minScore = 0.0;
    private int tokenBudget = Question.NO_TOKEN_BUDGET;

    private Builder(Lychee lychee) {
      this.lychee = Objects.requireNonNull(lychee, "lychee");
    }

    /** Maps chat memory ids to namespaces (default: one namespace per memory id). */
    public Builder resolver(MemoryScopeResolver r) {
      this.resolver = Objects.requireNonNull(r, "resolver");
      return this;
    }

    /** How many evidence items to put into the prompt (default 8, at least 1). */
    public Builder maxResults(int k) {
      this.maxResults = k;
      return this;
    }

    /** Evidence scoring below this is left out (default 0, range [0, 1]). */
    public Builder minScore(double s) {
      this.minScore = s;
      return this;
    }

    /**
     * The most tokens the recalled evidence may take in the prompt, so that memory cannot crowd out
     * the rest of the context window (default {@link Question#NO_TOKEN_BUDGET}: no budget, at most
     * {@link #maxResults(int)} items). With a budget, {@code maxResults} is the least search depth
     * and the number of items is whatever fits; see {@link Question}.
     *
     * @param tokens in [{@link Question#MIN_TOKEN_BUDGET}, {@link Question#MAX_TOKEN_BUDGET}], or
     *     {@link Question#NO_TOKEN_BUDGET} for none; checked by {@link #build()}
     * @return this builder
     */
    public Builder tokenBudget(int tokens) {
      this.tokenBudget = tokens;
      return this;
    }

    public LycheeContentRetriever build() {
      if (maxResults < 1) {
        throw new IllegalArgumentException("maxResults must be >= 1: " + maxResults);
      }
      if (!(minScore >= 0 && minScore <= 1)) {
        throw new IllegalArgumentException("minScore must be in [0, 1]: " + minScore);
      }
      // fail when the retriever is configured, not on the first chat call
      Question.checkTokenBudget(tokenBudget, "tokenBudget");
      return new LycheeContentRetriever(this);
    }
  }
}
