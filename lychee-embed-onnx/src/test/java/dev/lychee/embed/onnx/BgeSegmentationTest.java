package dev.lychee.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.core.segment.BoundaryDecision;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.segment.Segmenters;
import dev.lychee.core.segment.SemanticSegmenter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The default segmenter (default configuration, {@link OnnxEmbedder#PROFILE}) on a small
 * hand-written chat between two people, each turn a user-role turn of its speaker as the CLI and
 * the evaluation ingest them: after the same two opening turns about baking bread, a turn that
 * goes on with the subject is appended, and a turn that changes the subject closes the segment.
 */
class BgeSegmentationTest {

  private static final SegmentationConfig CONFIG = SegmentationConfig.defaults();
  /** Exchanges embedded as their turns' texts, read with {@link OnnxEmbedder#TURN_TEXT_PROFILE}. */
  private static final SegmentationConfig TURN_TEXTS =
      SegmentationConfig.builder().exchangeVectorsFromTurns(true).build();
  private static final String[][] OPENING = {
    {"Ann", "I baked my first sourdough loaf this weekend with the starter I have been feeding for ten days."},
    {"Bo", "Your first sourdough loaf! Did the starter make the dough rise well?"},
  };
  private static final String[] CONTINUATION =
      {"Ann", "Yes, the starter made the sourdough rise well, and my first loaf came out with a dark crackly crust."};
  private static final String[] CHANGE =
      {"Bo", "By the way, my landlord is selling the building, so I may have to move out of my flat in March."};

  private static OnnxEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = new OnnxEmbedder();
  }

  @Test
  void aContinuationIsAppended() {
    Run run = run(CONTINUATION);
    assertThat(run.closed()).isEmpty();
    assertThat(run.last().cut()).isFalse();
    assertThat(run.last().exchanges()).isEqualTo(2);
  }

  @Test
  void aChangeOfSubjectClosesTheSegment() {
    Run run = run(CHANGE);
    assertThat(run.last().cut()).isTrue();
    assertThat(run.closed()).hasSize(1);
    Segment closed = run.closed().get(0);
    assertThat(closed.reason()).isEqualTo(CloseReason.SEMANTIC_BOUNDARY);
    assertThat(closed.turns()).extracting(RawTurn::index).containsExactly(0, 1);
  }

  @Test
  void theChangeScoresClearlyAboveTheContinuation() {
    BoundaryDecision continuation = run(CONTINUATION).last();
    BoundaryDecision change = run(CHANGE).last();
    assertThat(change.surprise()).isGreaterThan(continuation.surprise());
    assertThat(change.probability() - continuation.probability()).isGreaterThan(0.2);
  }

  @Test
  void theProfileStatesItsOwnCohesionUnit() {
    assertThat(OnnxEmbedder.PROFILE.hasCohesionUnit()).isTrue();
    assertThat(OnnxEmbedder.PROFILE.cohesionUnit()).isEqualTo(0.0281);
    assertThat(embedder.profile()).isEqualTo(OnnxEmbedder.PROFILE);
  }

  @Test
  void withTurnTextsAContinuationIsAppendedAndAChangeCuts() {
    Run continuation = run(CONTINUATION, TURN_TEXTS);
    assertThat(continuation.closed()).isEmpty();
    assertThat(continuation.last().cut()).isFalse();
    Run change = run(CHANGE, TURN_TEXTS);
    assertThat(change.last().cut()).isTrue();
    assertThat(change.closed()).hasSize(1);
    assertThat(change.closed().get(0).turns()).extracting(RawTurn::index).containsExactly(0, 1);
    assertThat(change.last().probability() - continuation.last().probability()).isGreaterThan(0.2);
  }

  @Test
  void turnTextsAreReadWithTheirOwnProfile() {
    assertThat(embedder.turnTextProfile()).contains(OnnxEmbedder.TURN_TEXT_PROFILE);
    assertThat(Segmenters.profile(TURN_TEXTS, embedder)).isEqualTo(OnnxEmbedder.TURN_TEXT_PROFILE);
    assertThat(Segmenters.profile(CONFIG, embedder)).isEqualTo(OnnxEmbedder.PROFILE);
    // a one-turn exchange's text is its turn's, without the role prefix the profile was fitted on
    List<ExchangeDraft> drafts = Exchanges.form(List.of(turn(0, CHANGE)), TURN_TEXTS);
    assertThat(drafts.get(0).embeddingText(TURN_TEXTS)).doesNotStartWith("user: ");
  }

  private record Run(List<Segment> closed, BoundaryDecision last) {}

  /** The opening and then {@code third}, offered one exchange at a time; segments closed on the way. */
  private static Run run(String[] third) {
    return run(third, CONFIG);
  }

  private static Run run(String[] third, SegmentationConfig config) {
    List<RawTurn> turns = new ArrayList<>();
    for (String[] t : OPENING) {
      turns.add(turn(turns.size(), t));
    }
    turns.add(turn(turns.size(), third));
    List<ExchangeDraft> drafts = Exchanges.form(turns, config);
    assertThat(drafts).hasSize(3);
    List<float[]> vectors = embedder.embedDocuments(drafts.stream().map(d -> d.embeddingText(config)).toList());
    SemanticSegmenter segmenter =
        new SemanticSegmenter("chat", "s1", config, Segmenters.profile(config, embedder));
    List<Segment> closed = new ArrayList<>();
    for (int i = 0; i < drafts.size(); i++) {
      closed.addAll(segmenter.offer(drafts.get(i).toExchange(vectors.get(i))));
    }
    return new Run(closed, segmenter.lastDecision());
  }

  private static RawTurn turn(int index, String[] speakerAndText) {
    return new RawTurn("chat", TurnRef.of("s1", index), Role.USER, speakerAndText[0], speakerAndText[1], null);
  }
}
