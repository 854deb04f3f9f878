package dev.lychee.embed.onnx.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.embed.onnx.OnnxEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibrated profile must separate a change of subject from a continuation on a small,
 * hand-written conversation (not taken from LoCoMo): the change of subject lands at least two
 * spreads above the neutral point, and at least one spread above the continuation.
 */
class ProfileSanityTest {

  private static final List<String> OPEN =
      List.of(
          "Ann: I started training for a half marathon this spring.",
          "Bo: Nice! How far are you running each week?",
          "Ann: About thirty kilometres, with one long run every Sunday.");

  @Test
  void topicSwitchIsSurprisingAndContinuationIsNot() {
    OnnxEmbedder embedder = new OnnxEmbedder();
    EmbeddingProfile profile = embedder.profile();
    List<float[]> open = embedder.embedDocuments(OPEN);
    float[] continuation =
        embedder.embedDocuments(List.of("Bo: Do you stretch after the long runs? My knees would hate that distance.")).get(0);
    float[] change =
        embedder.embedDocuments(List.of("Ann: By the way, our landlord is raising the rent on the flat next month.")).get(0);
    double aContinuation = absolute(SurpriseSignal.surprise(open, continuation), profile);
    double aChange = absolute(SurpriseSignal.surprise(open, change), profile);
    assertThat(aChange).isGreaterThanOrEqualTo(2.0);
    assertThat(aChange - aContinuation).isGreaterThanOrEqualTo(1.0);
  }

  private static double absolute(double s, EmbeddingProfile p) {
    return Math.max(-1, Math.min(2.5, (s - p.surpriseCenter()) / p.surpriseScale()));
  }
}
