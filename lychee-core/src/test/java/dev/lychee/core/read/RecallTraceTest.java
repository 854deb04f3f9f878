package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallTrace;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A traced recall shows every stage, and tracing changes nothing about the result. */
class RecallTraceTest {

  private static Lychee memory() {
    Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build();
    lychee.append("ns", "s1", LocalDateTime.parse("2024-03-04T10:00"), List.of(
        Turn.user("Theo", "I finally repaired the old bicycle from my grandfather's garage."),
        Turn.user("Maya", "Is it the green racing bike from the seventies?"),
        Turn.user("Theo", "Yes, a Peugeot. New tyres and brakes."),
        Turn.user("Maya", "My cat Pepper hates the noise of the pump.")));
    lychee.flush("ns", "s1");
    return lychee;
  }

  @Test
  void theTraceShowsChannelsFusionFeaturesAndEveryPick() {
    try (Lychee lychee = memory()) {
      Question q = new Question("ns", "What bicycle did Theo repair?", 5, null);
      RecallTrace trace = new RecallTrace();
      Recall traced = lychee.recall(q, trace);
      Recall plain = lychee.recall(q);

      assertThat(traced.evidence()).extracting(Evidence::text).containsExactlyElementsOf(
          plain.evidence().stream().map(Evidence::text).toList());
      // every route ran every bound channel, and the channels' names are the built-in ones
      Set<String> channels = trace.channels().stream().map(RecallTrace.ChannelHits::channel).collect(Collectors.toSet());
      assertThat(channels).hasSizeGreaterThanOrEqualTo(3);
      assertThat(trace.channels()).allSatisfy(h -> assertThat(traced.plan().routes())
          .anySatisfy(r -> assertThat(r.id()).isEqualTo(h.route())));
      assertThat(trace.routes()).hasSize(traced.plan().routes().size());
      assertThat(trace.fused()).isNotEmpty();
      assertThat(trace.reranked()).hasSameSizeAs(trace.fused());
      // the reranker reported one feature set per candidate it scored, with the score it gave
      assertThat(trace.features()).hasSameSizeAs(trace.fused());
      assertThat(trace.features()).allSatisfy(f -> assertThat(f.features()).containsKeys("similarity", "lexical"));
      for (RecallTrace.Features f : trace.features()) {
        Candidate after = trace.reranked().stream().filter(c -> c.id().equals(f.candidate().id())).findFirst().orElseThrow();
        assertThat(after.score()).isEqualTo(f.score());
      }
      // the selector reported each pick, in the order of the final evidence
      assertThat(trace.picks()).extracting(p -> p.candidate().id())
          .containsExactlyElementsOf(traced.evidence().stream().map(e -> e.candidate().id()).toList());
      assertThat(trace.picks().get(0).maxSimilarity()).isZero();
      assertThat(trace.picks()).allSatisfy(p -> assertThat(p.value()).isLessThanOrEqualTo(p.relevance() + 1e-12));
    }
  }
}
