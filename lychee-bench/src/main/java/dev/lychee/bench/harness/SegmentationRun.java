package dev.lychee.bench.harness;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoSession;
import dev.lychee.bench.locomo.LocomoTurn;
import dev.lychee.core.encode.EncoderPrompt;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Construction cost of one segmentation (evaluation.md §3): every session of every conversation
 * goes through exchange formation, embedding and the chosen segmenter exactly as ingest does; each
 * closed segment is one encoder call, whose rendered LLM prompt (system + user message with an
 * empty reference context, since without an LLM there is no note to carry) is counted with the
 * tokenizer.
 *
 * <p>TODO(bench): drive this through the {@code Lychee} facade with {@code LycheeConfig}'s
 * segmenter selection once the facade is on main; the numbers must not move.
 */
public final class SegmentationRun {
  /**
   * The outcome.
   *
   * @param segmentSizes turns of every segment, in order
   * @param encoderInputTokens summed prompt tokens of one encoder call per segment
   */
  public record Result(String segmenter, int turns, List<Integer> segmentSizes, long encoderInputTokens,
      List<Conversation> conversations) {
    public Result {
      segmentSizes = List.copyOf(segmentSizes);
      conversations = List.copyOf(conversations);
    }

    public int segments() {
      return segmentSizes.size();
    }

    public double meanTurnsPerSegment() {
      return segmentSizes.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
    }

    /** The median (mean of the two middle values for an even count). */
    public double medianTurnsPerSegment() {
      int[] s = segmentSizes.stream().mapToInt(Integer::intValue).sorted().toArray();
      if (s.length == 0) {
        return Double.NaN;
      }
      return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    /** The nearest-rank 90th percentile. */
    public double p90TurnsPerSegment() {
      return SpeedRun.percentile(segmentSizes.stream().mapToDouble(Integer::doubleValue).toArray(), 90);
    }
  }

  /**
   * One conversation's share of the run.
   *
   * @param id the LoCoMo sample id
   * @param segments encoder calls: one per segment
   * @param encoderInputTokens summed prompt tokens of those calls
   */
  public record Conversation(String id, int turns, int segments, long encoderInputTokens) {}

  private final Segmenter.Factory factory;
  private final SegmentationConfig config;
  private final Embedder embedder;
  private final EncoderPrompt prompt;
  private final TokenCounter tokens;
  private final Progress progress;

  public SegmentationRun(Segmenter.Factory factory, SegmentationConfig config, Embedder embedder,
      EncoderPrompt prompt, TokenCounter tokens, Progress progress) {
    this.factory = Objects.requireNonNull(factory, "factory");
    this.config = Objects.requireNonNull(config, "config");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.prompt = Objects.requireNonNull(prompt, "prompt");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /**
   * The run; when {@code census} is given, every segment is also handed to it in order, and each
   * conversation is closed on it.
   */
  public Result run(List<LocomoConversation> conversations, RecordCensus census) {
    List<Integer> sizes = new ArrayList<>();
    List<Conversation> perConversation = new ArrayList<>();
    int turns = 0;
    long promptTokens = 0;
    int systemTokens = tokens.count(prompt.system());
    for (LocomoConversation conv : conversations) {
      String ns = "segments-" + conv.sampleId();
      progress.start(conv.sampleId() + " " + factory.name(), conv.sessions().size());
      int before = sizes.size();
      int convTurns = 0;
      long convTokens = 0;
      for (LocomoSession s : conv.sessions()) {
        convTurns += s.turns().size();
        for (Segment seg : segment(ns, s)) {
          sizes.add(seg.turns().size());
          convTokens += systemTokens + tokens.count(prompt.user(seg, ReferenceContext.EMPTY));
          if (census != null) {
            census.segment(seg);
          }
        }
        progress.step();
      }
      if (census != null) {
        census.endConversation();
      }
      turns += convTurns;
      promptTokens += convTokens;
      perConversation.add(new Conversation(conv.sampleId(), convTurns, sizes.size() - before, convTokens));
      progress.done((sizes.size() - before) + " segments");
    }
    return new Result(factory.name(), turns, sizes, promptTokens, perConversation);
  }

  /** The segments one session closes, flush included. */
  List<Segment> segment(String namespace, LocomoSession session) {
    List<RawTurn> raw = rawTurns(namespace, session);
    List<ExchangeDraft> drafts = Exchanges.form(raw, config);
    List<float[]> vectors = embedder.embedDocuments(drafts.stream().map(d -> d.embeddingText(config)).toList());
    List<Exchange> exchanges = new ArrayList<>(drafts.size());
    for (int i = 0; i < drafts.size(); i++) {
      exchanges.add(drafts.get(i).toExchange(vectors.get(i)));
    }
    Segmenter segmenter = factory.create(namespace, session.id());
    List<Segment> out = new ArrayList<>(segmenter.offerAll(exchanges));
    out.addAll(segmenter.flush());
    return out;
  }

  /** A LoCoMo session as stored raw turns: user role, speaker, index = turn - 1, session date. */
  public static List<RawTurn> rawTurns(String namespace, LocomoSession session) {
    List<RawTurn> out = new ArrayList<>(session.turns().size());
    for (LocomoTurn t : session.turns()) {
      out.add(new RawTurn(namespace, TurnRef.of(session.id(), t.id().turn() - 1), Role.USER, t.speaker(),
          t.text(), session.date()));
    }
    return out;
  }
}
