package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.EvidenceItem;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeedRunWarmupTest {
  /** Records every question it is asked, in order. */
  private static class Recording implements EvalSystem {
    final List<String> asked;

    Recording(List<String> asked) {
      this.asked = asked;
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public void ingest(String namespace, List<EvalSession> sessions) {}

    @Override
    public List<EvidenceItem> recall(String namespace, String question, int depth) {
      asked.add(question);
      return List.of();
    }

    @Override
    public void forget(String namespace) {}
  }

  private static LocomoConversation conversation() throws Exception {
    try (InputStream in = SpeedRunWarmupTest.class.getResourceAsStream("/locomo-tiny.json")) {
      return LocomoLoader.load(in).get(0);
    }
  }

  @Test
  void warmsUpWithQuestionsAfterTheTimedOnesInTurnAndNeverAsksATimedOneFirst() throws Exception {
    LocomoConversation conv = conversation();
    List<String> all = conv.questions().stream().map(LocomoQuestion::question).toList();
    assertThat(all).hasSizeGreaterThanOrEqualTo(3);
    int timed = all.size() - 2;
    List<String> asked = new ArrayList<>();
    List<SpeedRun.Scale> scales = new SpeedRun(e -> new Recording(asked), HashingEmbedder::new, new HashingEmbedder(),
        timed, 5, Progress.silent()).run(conv, List.of(1));
    // the two questions left after the timed ones warm up, in turn, five recalls untimed
    List<String> left = all.subList(timed, all.size());
    assertThat(asked).hasSize(5 + timed);
    assertThat(asked.subList(0, 5)).containsExactly(left.get(0), left.get(1), left.get(0), left.get(1), left.get(0));
    assertThat(asked.subList(5, asked.size())).containsExactlyElementsOf(all.subList(0, timed));
    assertThat(scales.get(0).warmup().recalls()).isEqualTo(5);
    assertThat(scales.get(0).warmup().quiet()).isFalse();
  }

  /** A JIT clock that compiles a lot during the first {@code busy} recalls it is told of, then nothing. */
  private static final class BusyJit implements java.util.function.DoubleSupplier {
    private final int busy;
    int recalls;

    BusyJit(int busy) {
      this.busy = busy;
    }

    @Override
    public double getAsDouble() {
      return 1_000.0 * Math.min(recalls, busy);
    }
  }

  /** One scale timing one question, warming up from {@code warmup} to {@code max} recalls under {@code jit}'s clock. */
  private static List<SpeedRun.Scale> runWarmingUp(LocomoConversation conv, BusyJit jit, List<String> asked, int warmup,
      int max) throws Exception {
    return new SpeedRun(e -> new Recording(asked) {
      @Override
      public List<EvidenceItem> recall(String namespace, String question, int depth) {
        jit.recalls++;
        return super.recall(namespace, question, depth);
      }
    }, HashingEmbedder::new, new HashingEmbedder(), 1, warmup, Progress.silent()).warmUntilJitQuiet(max, jit)
        .run(conv, List.of(1));
  }

  @Test
  void warmsUpInBlocksUntilTheJitIsQuietThenTimes() throws Exception {
    LocomoConversation conv = conversation();
    List<String> all = conv.questions().stream().map(LocomoQuestion::question).toList();
    BusyJit jit = new BusyJit(23);
    List<String> asked = new ArrayList<>();
    List<SpeedRun.Scale> scales = runWarmingUp(conv, jit, asked, 5, 200);
    // 5, then blocks of 10: 15 and 25 see compilation, the blocks ending at 35 and 45 are quiet
    SpeedRun.Warmup w = scales.get(0).warmup();
    assertThat(w.recalls()).isEqualTo(45);
    assertThat(w.quiet()).isTrue();
    assertThat(w.jitMs()).isEqualTo(23_000.0);
    assertThat(asked).hasSize(46);
    assertThat(asked.subList(0, 45)).doesNotContain(all.get(0));
    assertThat(asked.get(45)).isEqualTo(all.get(0));
  }

  @Test
  void aJitThatNeverQuietsStopsAtTheBound() throws Exception {
    LocomoConversation conv = conversation();
    BusyJit jit = new BusyJit(Integer.MAX_VALUE);
    List<String> asked = new ArrayList<>();
    List<SpeedRun.Scale> scales = runWarmingUp(conv, jit, asked, 3, 17);
    assertThat(scales.get(0).warmup().recalls()).isEqualTo(17);
    assertThat(scales.get(0).warmup().quiet()).isFalse();
    assertThat(asked).hasSize(18);
    assertThatThrownBy(() -> new SpeedRun(e -> new Recording(asked), HashingEmbedder::new, new HashingEmbedder(), 1, 3,
        Progress.silent()).warmUntilJitQuiet(2, jit)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bound (2) must be >= its minimum (3)");
  }

  /** Embeds every ingested turn twice through the embedder it was given, as one batch per session. */
  private static final class TwiceEmbedding implements EvalSystem {
    private final dev.lychee.api.spi.Embedder embedder;

    TwiceEmbedding(dev.lychee.api.spi.Embedder embedder) {
      this.embedder = embedder;
    }

    @Override
    public String name() {
      return "twice";
    }

    @Override
    public void ingest(String namespace, List<EvalSession> sessions) {
      for (EvalSession s : sessions) {
        List<String> texts = s.turns().stream().map(dev.lychee.api.Turn::text).toList();
        embedder.embedDocuments(texts);
        embedder.embedDocuments(texts);
      }
    }

    @Override
    public List<EvidenceItem> recall(String namespace, String question, int depth) {
      embedder.embedQuery(question);
      return List.of();
    }

    @Override
    public void forget(String namespace) {
      embedder.embedQuery("counted before ingest starts, so never in the ingest figures");
    }
  }

  @Test
  void reportsTheTextsTheTimedSystemEmbedsPerTurnAndTheShareOfIngestInsideTheEmbedder() throws Exception {
    LocomoConversation conv = conversation();
    List<SpeedRun.Scale> scales = new SpeedRun(TwiceEmbedding::new, HashingEmbedder::new, new HashingEmbedder(), 1, 0,
        Progress.silent()).run(conv, List.of(1, 2));
    assertThat(scales).extracting(SpeedRun.Scale::embeddingsPerTurn).containsExactly(2.0, 2.0);
    assertThat(scales).allSatisfy(s -> assertThat(s.embedderShare()).isGreaterThan(0).isLessThanOrEqualTo(1));
  }

  @Test
  void zeroWarmupTimesOnlyAndNegativeIsRejected() throws Exception {
    LocomoConversation conv = conversation();
    List<String> asked = new ArrayList<>();
    new SpeedRun(e -> new Recording(asked), HashingEmbedder::new, new HashingEmbedder(), 1, 0, Progress.silent()).run(conv, List.of(1));
    assertThat(asked).containsExactly(conv.questions().get(0).question());
    assertThatThrownBy(() -> new SpeedRun(e -> new Recording(asked), HashingEmbedder::new, new HashingEmbedder(), 1, -1, Progress.silent()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reusedScalesEmbedOneCopyOfTheDocumentsAndReportNoIngestRate() throws Exception {
    LocomoConversation conv = conversation();
    List<SpeedRun.Scale> scales = new SpeedRun(TwiceEmbedding::new, HashingEmbedder::new, new HashingEmbedder(), 1, 0,
        Progress.silent()).reuseDocumentVectorsFrom(3).run(conv, List.of(1, 3));
    // scale 1 is uncached: every turn twice; scale 3 embeds each distinct text of one copy once
    assertThat(scales.get(0).embeddingsPerTurn()).isEqualTo(2.0);
    assertThat(scales.get(0).ingestTurnsPerS()).isPositive();
    assertThat(scales.get(1).embeddingsPerTurn()).isLessThanOrEqualTo(1.0 / 3 + 1e-9);
    assertThat(scales.get(1).ingestTurnsPerS()).isNaN();
  }
}
