package dev.lychee.core.segment;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.Segmenter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Picks a segmenter factory by its configured name. */
public final class Segmenters {

  /** The built-in names, in the order shown in error messages. */
  public static final List<String> NAMES =
      List.of(SemanticSegmenter.NAME, FixedWindowSegmenter.NAME, TurnSegmenter.NAME);

  private Segmenters() {}

  /**
   * The factory named {@code name} ({@code semantic}, {@code fixed} or {@code turn}; case and
   * surrounding blanks are ignored).
   *
   * @param profile the embedder's calibration; only the semantic segmenter reads it
   * @throws IllegalArgumentException for an unknown name, listing the valid ones
   */
  public static Segmenter.Factory factory(String name, SegmentationConfig config, EmbeddingProfile profile) {
    Objects.requireNonNull(config, "config");
    String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    switch (key) {
      case SemanticSegmenter.NAME:
        return SemanticSegmenter.factory(config, Objects.requireNonNull(profile, "profile"));
      case FixedWindowSegmenter.NAME:
        return FixedWindowSegmenter.factory(config);
      case TurnSegmenter.NAME:
        return TurnSegmenter.factory();
      default:
        throw new IllegalArgumentException(
            "unknown segmenter '" + name + "'; valid names: " + String.join(", ", NAMES));
    }
  }

  /**
   * The profile the semantic segmenter reads with {@code config}: with {@link
   * SegmentationConfig#exchangeVectorsFromTurns()} the embedder's {@link
   * Embedder#turnTextProfile()}, since without the role prefix consecutive texts look less alike
   * and a profile fitted on exchange texts draws more boundaries (docs/defaults.md §1.3); its
   * {@link Embedder#profile()} otherwise, or when it declares no turn-text profile.
   */
  public static EmbeddingProfile profile(SegmentationConfig config, Embedder embedder) {
    if (config.exchangeVectorsFromTurns()) {
      return embedder.turnTextProfile().orElseGet(embedder::profile);
    }
    return embedder.profile();
  }
}
