package dev.lychee.core.organize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyNormalizerTest {

  @ParameterizedTest(name = "[{index}] \"{0}\" -> \"{1}\"")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      "  Choir-Rehearsal "        | choir rehearsal
      "New York, NY"            | new york ny
      "C++ & Java!"             | c java
      "a_b:c/d\\e|f;g"          | a b c d e f g
      "Café Déjà-Vu"            | café déjà vu
      "北京，上海；广州：深圳"      | 北京 上海 广州 深圳
      "I'm  a   fan"            | im a fan
      "2023-05-08"              | 2023 05 08
      "community+ choir rehearsal"    | community choir rehearsal
      "!!!"                     | ""
      "   "                     | ""
      """)
  void normalises(String in, String expected) {
    assertThat(KeyNormalizer.norm(in)).isEqualTo(expected == null ? "" : expected);
  }
}
