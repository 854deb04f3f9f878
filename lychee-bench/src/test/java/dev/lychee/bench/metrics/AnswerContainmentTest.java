package dev.lychee.bench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

class AnswerContainmentTest {
  private static double c(String gold, String evidence) {
    return AnswerContainment.contained(gold, evidence);
  }

  @Test
  void aGoldDayMatchesAnyAbsoluteRenderingOfThatDay() {
    assertThat(c("7 May 2023", "[1] Nadia went to a choir rehearsal.\nDate: 2023-05-07")).isEqualTo(1);
    assertThat(c("7 May 2023", "[1] Nadia: I went yesterday!\nMentioned: 2023-05-08")).isEqualTo(0);
    assertThat(c("June 20th, 2024", "Dana flies to Tokyo on 20 June 2024.")).isEqualTo(1);
    assertThat(c("2024-06-20", "Dana flies to Tokyo on June 20, 2024.")).isEqualTo(1);
    assertThat(c("The week before 12 March 2024", "[2] Rafael ran a relay race the week before 2024-03-12"))
        .isEqualTo(1);
    assertThat(c("The week before 12 March 2024", "[2] Rafael ran a relay race\nDate: 2024-03-12")).isEqualTo(0);
    // a day without its year is no rendering of it
    assertThat(c("7 May 2023", "Nadia went on May 7 to the group.")).isEqualTo(0);
  }

  @Test
  void aGoldMonthMatchesThatMonthOrAnyDayInIt() {
    assertThat(c("May 2023", "Date: 2023-05-21")).isEqualTo(1);
    assertThat(c("May 2023", "Date: 2023-05-01/2023-05-31")).isEqualTo(1);
    assertThat(c("May 2023", "Mentioned: 2023-06-01")).isEqualTo(0);
    assertThat(c("2022", "[3] Pavel sold his boat.\nDate: 2022-08-14")).isEqualTo(1);
    assertThat(c("2022", "[3] Pavel sold his boat.\nDate: 2023-01-14")).isEqualTo(0);
  }

  @Test
  void wordsAreComparedAfterNormalisation() {
    assertThat(c("pottery, painting", "Rafael: I love painting and the pottery class!")).isEqualTo(1);
    assertThat(c("pottery, painting", "Rafael: I love painting.")).isEqualTo(0);
    assertThat(c("Sweden!", "Nadia moved here from SWEDEN four years ago.")).isEqualTo(1);
    assertThat(c("The Sweden", "Nadia moved from Norway.")).isEqualTo(0);
    assertThat(c("", "anything at all")).isEqualTo(0);
    assertThat(c("   ", "anything at all")).isEqualTo(0);
  }

  @Test
  void datesAreFoundInEveryRenderingAndCutFromTheText() {
    DateForms f = DateForms.of("Met on 3rd of March, 2021 and again 2021-04-05, then in Sept 2022; 2023-13-40 is no date.");
    assertThat(f.days()).containsExactlyInAnyOrder(LocalDate.of(2021, 3, 3), LocalDate.of(2021, 4, 5));
    assertThat(f.months()).containsExactly(YearMonth.of(2022, 9));
    assertThat(f.rest()).doesNotContain("2021").doesNotContain("Sept").contains("2023-13-40");
    assertThat(f.years()).containsExactlyInAnyOrder("2021", "2022");
  }
}
