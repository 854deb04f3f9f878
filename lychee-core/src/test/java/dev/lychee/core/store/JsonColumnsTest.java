package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonColumnsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void stringsRoundTripIncludingEscapesAndOddCharacters() {
    List<String> values = List.of("", "plain", "quote \" and \\ backslash", "nul \u0000 char", "tab\tnew\nline",
        "unicode é 漢字 \uD83D\uDE00", "[\"not\",\"nested\"]");
    String json = JsonColumns.strings(values);
    assertThat(JsonColumns.strings(json)).containsExactlyElementsOf(values);
    assertThat(json).doesNotContain("\u0000");
    assertThat(JsonColumns.strings("[]")).isEmpty();
  }

  @Test
  void turnRefsAndRangesRoundTrip() {
    List<TurnRef> refs = List.of(new TurnRef("s-1", 0), new TurnRef("sess \"2\"", 41), new TurnRef("é", 7));
    assertThat(JsonColumns.turnRefs(JsonColumns.turnRefs(refs))).containsExactlyElementsOf(refs);
    List<TurnRange> ranges = List.of(new TurnRange("s-1", 0, 3), new TurnRange("x", 5, 5));
    assertThat(JsonColumns.turnRanges(JsonColumns.turnRanges(ranges))).containsExactlyElementsOf(ranges);
    assertThat(JsonColumns.turnRefs("[]")).isEmpty();
    assertThat(JsonColumns.turnRanges(" [ ] ")).isEmpty();
  }

  @Test
  void readsWhatGenericJacksonBindingRead() throws Exception {
    // the streaming readers replaced a bind to List<String> / List<List<Object>>; same values
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<String> strings = new ArrayList<>();
      List<List<Object>> tuples = new ArrayList<>();
      for (int i = 0, n = random.nextInt(30); i < n; i++) {
        String s = randomText(random);
        strings.add(s);
        int first = random.nextInt(500);
        tuples.add(List.of("s" + s, first, first + random.nextInt(20)));
      }
      String stringsJson = JSON.writeValueAsString(strings);
      assertThat(JsonColumns.strings(stringsJson))
          .isEqualTo(JSON.readValue(stringsJson, new TypeReference<List<String>>() {}));
      String tuplesJson = JSON.writeValueAsString(tuples);
      List<TurnRange> expected = new ArrayList<>();
      for (List<Object> t : JSON.readValue(tuplesJson, new TypeReference<List<List<Object>>>() {})) {
        expected.add(new TurnRange((String) t.get(0), ((Number) t.get(1)).intValue(), ((Number) t.get(2)).intValue()));
      }
      assertThat(JsonColumns.turnRanges(tuplesJson)).isEqualTo(expected);
    }
  }

  @Test
  void corruptColumnsFailWithTheLengthOnly() {
    for (String bad : List.of("", "{", "[1]", "[[\"s\"]]", "[[\"s\", \"x\"]]", "[\"a\"", "not json")) {
      assertThatThrownBy(() -> {
        JsonColumns.strings(bad);
        JsonColumns.turnRefs(bad);
      }).as(bad).isInstanceOf(IllegalStateException.class).hasMessageContaining("corrupt JSON column");
    }
    assertThatThrownBy(() -> JsonColumns.turnRanges("[[\"s\", 1]]")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> JsonColumns.turnRefs("[\"s\"]")).isInstanceOf(IllegalStateException.class);
  }

  private static String randomText(Random random) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0, n = random.nextInt(12); i < n; i++) {
      int kind = random.nextInt(6);
      sb.append(switch (kind) {
        case 0 -> '"';
        case 1 -> '\\';
        case 2 -> (char) random.nextInt(32);
        case 3 -> (char) (0x4E00 + random.nextInt(200));
        default -> (char) ('a' + random.nextInt(26));
      });
    }
    return sb.toString();
  }
}
