package dev.lychee.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The model call that tokenises a text once gives the vectors of the wrapper's own path (three
 * tokenisations, the whole output tensor copied): on LoCoMo turns and exchanges as the write path
 * embeds them, and on texts that stress the tokenizer (accents, emoji, unknown characters, word
 * pieces, a text longer than one window).
 */
class SingleTokenisationTest {
  private static final Path LOCOMO = Path.of("/work/shared/data/locomo/locomo-dev.json");

  @Test
  void vectorsEqualTheWrappersOnConversationTexts() throws IOException {
    BgeModel model = BgeModel.shared(1);
    List<String> texts = new ArrayList<>(List.of(
        "Nadia: I went to the choir rehearsal yesterday and it was really powerful.",
        "Entity: Nadia\nTag: choir rehearsal\nEvidence: Nadia went to a choir rehearsal on 7 May 2023.",
        "ok",
        "Zoë: Café crème at the Müller-Straße, 23°C — très bien! 😀🎉",
        "Ω≈ç√∫ 漢字 ｆｕｌｌｗｉｄｔｈ tab\there \u200b zero-width and a lone \uFFFD replacement",
        "antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis xyzzyplugh",
        "user: Pavel: I'm going for my dreams!\nassistant: Hana: Don't give up -- you'll find it!!!",
        "word ".repeat(700).strip()));
    texts.addAll(locomoTexts(300));
    int checked = 0;
    for (String text : texts) {
      float[] fast = model.embedOne(text);
      float[] wrapper = model.viaWrapper(text);
      assertThat(unit(fast)).as(text).containsExactly(unit(wrapper), Offset.offset(1e-5f));
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(8);
  }

  /** Turns ({@code speaker: text}) and two-turn exchanges from the LoCoMo dev file, when present. */
  private static List<String> locomoTexts(int max) throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.exists(LOCOMO)) {
      return out;
    }
    JsonNode root = new ObjectMapper().readTree(LOCOMO.toFile());
    for (JsonNode sample : root) {
      JsonNode conversation = sample.path("conversation");
      for (int n = 1; conversation.has("session_" + n) && out.size() < max; n++) {
        String previous = null;
        for (JsonNode turn : conversation.get("session_" + n)) {
          String text = turn.path("speaker").asText() + ": " + turn.path("text").asText();
          out.add(text);
          if (previous != null) {
            out.add("user: " + previous + "\nassistant: " + text);
            previous = null;
          } else {
            previous = text;
          }
        }
      }
      if (out.size() >= max) {
        break;
      }
    }
    return out.subList(0, Math.min(max, out.size()));
  }

  private static float[] unit(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(s));
    }
    return out;
  }
}
