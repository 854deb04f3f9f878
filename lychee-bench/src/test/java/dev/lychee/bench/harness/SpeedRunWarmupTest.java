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
  private static final class Recording implements EvalSystem {
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
  void warmsUpWithQuestionsAfterTheTimedOnesAndNeverReusesThem() throws Exception {
    LocomoConversation conv = conversation();
    List<String> all = conv.questions().stream().map(LocomoQuestion::question).toList();
    assertThat(all).hasSizeGreaterThanOrEqualTo(3);
    int timed = all.size() - 2;
    List<String> asked = new ArrayList<>();
    new SpeedRun(e -> new Recording(asked), HashingEmbedder::new, new HashingEmbedder(), timed, 5, Progress.silent())
        .run(conv, List.of(1));
    // the two questions left after the timed ones warm up first (fewer than asked for), untimed
    assertThat(asked).hasSize(all.size());
    assertThat(asked.subList(0, 2)).containsExactlyElementsOf(all.subList(timed, all.size()));
    assertThat(asked.subList(2, asked.size())).containsExactlyElementsOf(all.subList(0, timed));
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
