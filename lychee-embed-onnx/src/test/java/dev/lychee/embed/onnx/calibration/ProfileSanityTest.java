package dev.lychee.embed.onnx.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.embed.onnx.OnnxEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibrated profile must separate a change of subject from a continuation on a small,
 * hand-written conversation (not taken from LoCoMo), embedded as the segmenter embeds exchanges
 * ({@code "user: <speaker>: <text>"}, the text the profile was fitted on): the change of subject
 * lands at least two scale units above the neutral point and, before clipping, at least one unit above the
 * continuation.
 */
class ProfileSanityTest {

  private static final List<String> OPEN =
      List.of(
          "user: Ann: I started training for a half marathon this spring.",
          "user: Bo: Nice! How far are you running each week?",
          "user: Ann: About thirty kilometres, with one long run every Sunday.");

  @Test
  void topicSwitchIsSurprisingAndContinuationIsNot() {
    OnnxEmbedder embedder = new OnnxEmbedder();
    EmbeddingProfile profile = embedder.profile();
    List<float[]> open = embedder.embedDocuments(OPEN);
    float[] continuation =
        embedder.embedDocuments(List.of("user: Bo: Do you stretch after the long runs? My knees would hate that distance.")).get(0);
    float[] change =
        embedder.embedDocuments(List.of("user: Ann: By the way, our landlord is raising the rent on the flat next month.")).get(0);
    double sContinuation = SurpriseSignal.surprise(open, continuation);
    double sChange = SurpriseSignal.surprise(open, change);
    assertThat(absolute(sChange, profile)).isGreaterThanOrEqualTo(2.0);
    // unclipped: the change of subject is at least one scale unit more surprising
    assertThat((sChange - sContinuation) / profile.surpriseScale()).isGreaterThanOrEqualTo(1.0);
  }

  private static double absolute(double s, EmbeddingProfile p) {
    return Math.max(-1, Math.min(2.5, (s - p.surpriseCenter()) / p.surpriseScale()));
  }
}
