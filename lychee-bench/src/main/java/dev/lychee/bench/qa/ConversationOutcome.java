package dev.lychee.bench.qa;

import java.util.List;

/**
 * Everything one variant's run of one conversation (or LongMemEval item) produced: what building
 * its memory cost and how each question fared. It is the unit of checkpointing: a finished one is
 * written to disk and never recomputed by a resumed run.
 *
 * @param id the conversation (or question) id
 * @param variant the variant's name
 * @param turns turns ingested
 * @param segments segments closed
 * @param pendingSegments segments left unencoded (their encoder calls failed)
 * @param records records stored
 * @param constructionCalls LLM calls made while ingesting (encoder calls, repair retries included)
 * @param constructionInputTokens their provider-reported input tokens
 * @param constructionOutputTokens their provider-reported output tokens
 * @param constructionMillis wall time of the ingest
 * @param questions the judged questions
 */
public record ConversationOutcome(
    String id,
    String variant,
    int turns,
    int segments,
    int pendingSegments,
    int records,
    long constructionCalls,
    long constructionInputTokens,
    long constructionOutputTokens,
    long constructionMillis,
    List<QuestionOutcome> questions) {

  public ConversationOutcome {
    questions = List.copyOf(questions);
  }

  /** Input plus output tokens of construction. */
  public long constructionTokens() {
    return constructionInputTokens + constructionOutputTokens;
  }
}
