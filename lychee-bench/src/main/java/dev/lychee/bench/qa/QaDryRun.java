package dev.lychee.bench.qa;

import dev.lychee.api.Candidate;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Evidence;
import dev.lychee.api.Provenance;
import dev.lychee.api.Question;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.Role;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.SegmentationRun;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.answer.LlmAnswerGenerator;
import dev.lychee.core.encode.EncoderPrompt;
import dev.lychee.core.plan.LlmPlanner;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.segment.Segmenters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an LLM-judged run would send, before anything is sent: calls and input tokens per variant,
 * from the segment census (encoder calls are segments; the encoder prompt is rendered for each and
 * counted with o200k) and from the planner, answer and judge prompts rendered for each question.
 *
 * <p>Two quantities are not known before the run and are estimated: the evidence in an answer
 * prompt ({@code k} items of {@link #ITEM_TOKENS} tokens, the mean serialised item size measured
 * offline on the LoCoMo dev half) and the answer the judge reads ({@link #ANSWER_TOKENS}). Encoder
 * repair retries are not counted. For the summary variant the typed encoder's prompt is counted,
 * an upper bound (its own instructions are shorter).
 */
public final class QaDryRun {
  /** Estimated o200k tokens of one serialised evidence item. */
  public static final int ITEM_TOKENS = 72;
  /** Estimated tokens of a generated answer. */
  public static final int ANSWER_TOKENS = 12;

  private final Embedder embedder;
  private final TokenCounter tokens;
  private final Progress progress;

  public QaDryRun(Embedder embedder, TokenCounter tokens, Progress progress) {
    this.embedder = embedder;
    this.tokens = tokens;
    this.progress = progress;
  }

  /**
   * The estimate of one variant.
   *
   * @param variant its name
   * @param conversations conversations counted
   * @param questions questions counted
   * @param encoderCalls encoder calls (one per segment)
   * @param encoderInputTokens encoder prompt tokens
   * @param queryCalls planner plus answer calls
   * @param queryInputTokens their prompt tokens
   * @param judgeCalls judge calls
   * @param judgeInputTokens their prompt tokens
   */
  public record Estimate(String variant, int conversations, int questions, long encoderCalls, long encoderInputTokens,
      long queryCalls, long queryInputTokens, long judgeCalls, long judgeInputTokens) {
    public long calls() {
      return encoderCalls + queryCalls + judgeCalls;
    }

    public long inputTokens() {
      return encoderInputTokens + queryInputTokens + judgeInputTokens;
    }
  }

  /** Estimates every variant over the conversations and their (possibly limited) questions. */
  public List<Estimate> estimate(List<LocomoConversation> conversations, List<QaCase> cases, List<QaVariant> variants, int k) {
    LycheeConfig defaults = LycheeConfig.defaults();
    Map<String, SegmentationRun.Result> census = new HashMap<>();
    long query = 0;
    long judge = 0;
    int questions = 0;
    for (QaCase c : cases) {
      for (QaCase.Item q : c.questions()) {
        query += queryPromptTokens(q, k);
        judge += judgePromptTokens(q);
        questions++;
      }
    }
    List<Estimate> out = new ArrayList<>();
    SegmentationConfig segmentation = defaults.segmentation();
    for (QaVariant v : variants) {
      SegmentationRun.Result seg = census.computeIfAbsent(v.segmenter(), name -> new SegmentationRun(
          Segmenters.factory(name, segmentation, Segmenters.profile(segmentation, embedder)), segmentation, embedder,
          new EncoderPrompt(defaults.encoding()), tokens, progress).run(conversations, null));
      out.add(new Estimate(v.name(), cases.size(), questions, seg.segments(), seg.encoderInputTokens(),
          2L * questions, query, questions, judge));
    }
    return out;
  }

  /** A terminal table of the estimates. */
  public static String table(List<Estimate> estimates) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-14s %5s %6s %9s %12s %9s %12s %9s %12s %14s%n",
        "variant", "conv", "n", "enc calls", "enc K tok", "qry calls", "qry K tok", "jdg calls", "jdg K tok",
        "total K input"));
    for (Estimate e : estimates) {
      out.append(String.format(Locale.ROOT, "%-14s %5d %6d %9d %12.1f %9d %12.1f %9d %12.1f %14.1f%n", e.variant(),
          e.conversations(), e.questions(), e.encoderCalls(), e.encoderInputTokens() / 1000.0, e.queryCalls(),
          e.queryInputTokens() / 1000.0, e.judgeCalls(), e.judgeInputTokens() / 1000.0, e.inputTokens() / 1000.0));
    }
    return out.append("nothing was sent; output tokens are not estimated\n").toString();
  }

  private long queryPromptTokens(QaCase.Item q, int k) {
    Question question = new Question("dry-run", q.question(), k, q.askedAt());
    PromptCounter planner = new PromptCounter(tokens);
    new LlmPlanner(planner).plan(question);
    PromptCounter answer = new PromptCounter(tokens);
    RawTurn probe = new RawTurn("dry-run", new TurnRef("s", 0), Role.USER, null, "x", null);
    Evidence one = new Evidence(1, 1.0, Candidate.ofTurn(probe, 1.0, 1.0, Provenance.EMPTY));
    new LlmAnswerGenerator(answer, tokens).answer(question, RecallPlan.singleRoute(q.question()), List.of(one));
    return planner.tokens + answer.tokens + (long) (k - 1) * ITEM_TOKENS;
  }

  private long judgePromptTokens(QaCase.Item q) {
    PromptCounter judge = new PromptCounter(tokens);
    new AnswerJudge(judge).judge(q.question(), q.gold(), "x".repeat(1), q.rule());
    return judge.tokens + ANSWER_TOKENS;
  }

  /** A chat model that only counts the prompt it is sent and answers with nothing useful. */
  private static final class PromptCounter implements ChatModel {
    private final TokenCounter counter;
    long tokens;

    PromptCounter(TokenCounter counter) {
      this.counter = counter;
    }

    @Override
    public ChatResult chat(ChatRequest request) {
      request.messages().forEach(m -> tokens += counter.count(m.content()));
      return new ChatResult("{}", TokenUsage.ZERO, "dry-run");
    }

    @Override
    public String modelId() {
      return "dry-run";
    }
  }
}
