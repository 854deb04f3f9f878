package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.systems.LycheeSystem;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Does a speed run with stage timings name every stage of Lychee's recall and count its query texts? */
class RecallStagesTest {
  @Test
  void aStagedSpeedRunReportsEveryStageInPipelineOrderAndTheQueryTextsPerRecall() throws Exception {
    LocomoConversation conv;
    try (InputStream in = RecallStagesTest.class.getResourceAsStream("/locomo-tiny.json")) {
      conv = LocomoLoader.load(in).get(0);
    }
    RecallStages stages = new RecallStages();
    SpeedRun run = new SpeedRun(e -> new LycheeSystem("lychee", e, LycheeConfig.defaults(), 10), HashingEmbedder::new,
        new HashingEmbedder(), 3, 0, Progress.silent()).timeStages(stages);
    run.run(conv, List.of(1));
    assertThat(stages.meanMs().keySet()).containsSubsequence("planning + variants", "query embedding",
        "channel lexical", "route scoring + windows", "fusion", "rerank", "selection (MMR)", "evidence + serialisation");
    assertThat(stages.meanMs().values()).allMatch(ms -> ms >= 0);
    assertThat(stages.queryTextsPerRecall()).isGreaterThanOrEqualTo(1);
    assertThat(run.stageTables()).hasSize(1);
    assertThat(run.stageTables().get(0)).contains("lychee x1 (3 recalls", "query texts embedded per recall",
        "query batches in the recalls", "one query embedding alone");
    // the slowest recalls, slowest first, each with its own stages
    List<RecallStages.Recall> slow = stages.slowest(2);
    assertThat(slow).hasSize(2);
    assertThat(slow.get(0).wallMs()).isGreaterThanOrEqualTo(slow.get(1).wallMs());
    assertThat(slow.get(0).stagesMs()).containsKeys("query embedding", "rerank");
    assertThat(run.stageTables().get(0)).contains("slow: recall #" + slow.get(0).number());
  }

  @Test
  void theQueryEmbeddingRunsFromARecallsFirstBatchToItsLastAndCountsEveryText() {
    RecallStages stages = new RecallStages();
    dev.lychee.api.spi.Embedder embedder = stages.wrap(new HashingEmbedder());
    stages.begin();
    embedder.embedQueries(List.of("the question"));
    embedder.embedQueries(List.of("one goal", "another goal"));
    stages.channel(null, "lexical", List.of());
    stages.end();
    assertThat(stages.queryTextsPerRecall()).isEqualTo(3);
    assertThat(stages.meanMs()).containsKeys("planning + variants", "query embedding", "channel lexical");
    assertThat(stages.table("t")).contains("query batches in the recalls").doesNotContain("one query embedding alone");
  }
}
