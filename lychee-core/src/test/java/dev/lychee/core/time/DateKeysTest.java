package dev.lychee.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DateKeysTest {

  @ParameterizedTest
  @CsvSource(textBlock = """
      2023-05-08,                         2023-05-08
      2023/5/8 was the day,               2023-05-08
      2023.05.08,                         2023-05-08
      2023年5月8日,                        2023-05-08
      'May 8th, 2023',                    2023-05-08
      Sept 3 2022,                        2022-09-03
      'on 8 May, 2023',                   2023-05-08
      '1:56 pm on 8 May, 2023',           2023-05-08
      2023-05-081,                        none
      2023-02-30,                         none
      May 2023,                           none
      yesterday,                          none
      """)
  void normalizeDateKey(String text, String expected) {
    if (expected.equals("none")) {
      assertThat(DateKeys.normalizeDateKey(text)).isEmpty();
    } else {
      assertThat(DateKeys.normalizeDateKey(text)).contains(LocalDate.parse(expected));
    }
  }

  @Test
  void extractsEveryDistinctDayYearFirstPatternFirst() {
    String text = "from 3 June 2023 until 2023-06-10, again on June 3, 2023 and 2023-06-10";
    assertThat(DateKeys.extractDayKeys(text)).containsExactly(
        LocalDate.of(2023, 6, 10), LocalDate.of(2023, 6, 3));
  }

  @Test
  void invalidCandidateIsSkippedForTheNextValidOne() {
    assertThat(DateKeys.normalizeDateKey("2023-13-01 or 2023-12-01")).contains(LocalDate.of(2023, 12, 1));
  }

  @Test
  void keys() {
    LocalDate d = LocalDate.of(2023, 5, 8);
    assertThat(DateKeys.dayKey(d)).isEqualTo("2023-05-08");
    assertThat(DateKeys.monthKey(d)).isEqualTo("2023-05");
  }
}
