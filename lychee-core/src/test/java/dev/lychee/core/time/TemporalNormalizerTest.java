package dev.lychee.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.TemporalScope;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TemporalNormalizerTest {

  private final TemporalNormalizer normalizer = new TemporalNormalizer();

  /**
   * Anchor 2023-05-10 is a Wednesday (week Mon 05-08 .. Sun 05-14); 2023-05-13 is a Saturday.
   * expected: a day, {@code start..end}, {@code none} (recognised, undated) or {@code unparsed}.
   */
  @ParameterizedTest(name = "[{index}] {1} @ {0} -> {2}")
  @CsvSource(textBlock = """
      2023-05-10, yesterday,                               2023-05-09
      2023-05-10, today,                                   2023-05-10
      2023-05-10, tonight,                                 2023-05-10
      2023-05-10, this morning,                            2023-05-10
      2023-05-10, tomorrow,                                2023-05-11
      2023-05-10, last night,                              2023-05-09
      2023-05-10, the day before yesterday,                2023-05-08
      2023-05-10, the day after tomorrow,                  2023-05-12
      2023-05-10, the day before,                          2023-05-09
      2023-05-10, the day after,                           2023-05-11
      2023-05-10, last Friday,                             2023-05-05
      2023-05-10, next Friday,                             2023-05-12
      2023-05-10, this Friday,                             2023-05-12
      2023-05-10, this Monday,                             2023-05-08
      2023-05-10, last Wednesday,                          2023-05-03
      2023-05-10, I went to the park on Friday,            2023-05-05
      2023-05-10, I will go to the park on Friday,         2023-05-12
      2023-05-10, 3 days ago,                              2023-05-07
      2023-05-10, three days ago,                          2023-05-07
      2023-05-10, two weeks ago,                           2023-04-26
      2023-05-10, a week ago,                              2023-05-03
      2023-05-10, two months ago,                          2023-03-01..2023-03-31
      2023-05-10, six months ago,                          2022-11-01..2022-11-30
      2023-05-10, a year ago,                              2022-01-01..2022-12-31
      2023-05-10, five years ago,                          2018-01-01..2018-12-31
      2023-05-10, a few days ago,                          2023-05-05..2023-05-08
      2023-05-10, a couple of days ago,                    2023-05-08
      2023-05-10, several weeks ago,                       2023-03-22..2023-04-19
      2023-05-10, in two weeks,                            2023-05-24
      2023-05-10, two days later,                          2023-05-12
      2023-05-10, last week,                               2023-05-01..2023-05-07
      2023-05-10, this week,                               2023-05-08..2023-05-14
      2023-05-10, next week,                               2023-05-15..2023-05-21
      2023-05-10, last month,                              2023-04-01..2023-04-30
      2023-05-10, next month,                              2023-06-01..2023-06-30
      2023-05-10, last year,                               2022-01-01..2022-12-31
      2023-05-10, next year,                               2024-01-01..2024-12-31
      2023-05-10, last weekend,                            2023-05-06..2023-05-07
      2023-05-10, this past weekend,                       2023-05-06..2023-05-07
      2023-05-10, this weekend,                            2023-05-13..2023-05-14
      2023-05-10, next weekend,                            2023-05-20..2023-05-21
      2023-05-10, We went hiking over the weekend,         2023-05-06..2023-05-07
      2023-05-13, this weekend,                            2023-05-13..2023-05-14
      2023-05-13, last weekend,                            2023-05-06..2023-05-07
      2023-05-10, earlier this month,                      2023-05-01..2023-05-09
      2023-05-10, later this month,                        2023-05-11..2023-05-31
      2023-05-10, in May 2023,                             2023-05-01..2023-05-31
      2023-05-10, in May,                                  2023-05-01..2023-05-31
      2023-05-10, I visited Paris in March,                2023-03-01..2023-03-31
      2023-05-10, I visited Paris in August,               2022-08-01..2022-08-31
      2023-05-10, I will visit Paris in March,             2024-03-01..2024-03-31
      2023-05-10, My new job starts in June,               2023-06-01..2023-06-30
      2023-05-10, The exhibition opens in March,           2024-03-01..2024-03-31
      2023-05-10, The course started in June,              2022-06-01..2022-06-30
      2023-05-10, last May,                                2022-05-01..2022-05-31
      2023-05-10, next June,                               2023-06-01..2023-06-30
      2023-05-10, I am going to Rome on June 3,            2023-06-03
      2023-05-10, I was in Rome on June 3,                 2022-06-03
      2023-05-10, last summer,                             2022-06-01..2022-08-31
      2023-05-10, summer 2021,                             2021-06-01..2021-08-31
      2023-05-10, in 2022,                                 2022-01-01..2022-12-31
      2023-05-10, 2021,                                    2021-01-01..2021-12-31
      2023-05-10, 2023-05-08,                              2023-05-08
      2023-05-10, 2023-05-08T13:56:00,                     2023-05-08
      2023-05-10, '8 May, 2023',                           2023-05-08
      2023-05-10, May 8th 2023,                            2023-05-08
      2023-05-10, 'May 8, 2023',                           2023-05-08
      2023-05-10, 05/08/2023,                              2023-05-08
      2023-05-10, 25/12/2023,                              2023-12-25
      2023-05-10, 2023-05,                                 2023-05-01..2023-05-31
      2023-05-10, 2023-05-01 to 2023-05-07,                2023-05-01..2023-05-07
      2023-05-10, recently,                                none
      2023-05-10, the other day,                           none
      2023-05-10, 'February 30, 2023',                     unparsed
      2023-05-10, sometime,                                unparsed
      """)
  void resolvesExpression(String anchor, String text, String expected) {
    LocalDate a = LocalDate.parse(anchor);
    Optional<DateRange> got = normalizer.resolve(text, a);
    switch (expected) {
      case "none" -> {
        assertThat(got).isEmpty();
        assertThat(normalizer.find(text, a)).singleElement().satisfies(m -> assertThat(m.dated()).isFalse());
      }
      case "unparsed" -> {
        assertThat(got).isEmpty();
        assertThat(normalizer.find(text, a)).noneMatch(DateMention::dated);
      }
      default -> assertThat(got).contains(parse(expected));
    }
  }

  /**
   * Plans are resolved forward from the session date: the progressive of an arrangement, going-to,
   * will, plan and schedule verbs, "this coming", a date told with a present "is/are on" (issue 20.4). The last rows are past sentences that
   * must stay in the past.
   */
  @ParameterizedTest(name = "[{index}] {1} @ {0} -> {2}")
  @CsvSource(textBlock = """
      2024-09-02, My sister is visiting on October 12th,           2024-10-12
      2024-06-01, I'm flying to Tokyo on June 20th,                2024-06-20
      2024-11-20, I'm starting Dutch lessons in January,           2025-01-01..2025-01-31
      2024-03-10, We're moving to Leeds in February,               2025-02-01..2025-02-28
      2024-03-10, I'm going to visit my parents in April,          2024-04-01..2024-04-30
      2024-12-15, We are getting married in March,                 2025-03-01..2025-03-31
      2024-10-01, She's coming over on Friday,                     2024-10-04
      2024-10-04, I'm meeting Sam on Monday,                       2024-10-07
      2024-05-20, The concert is planned for June 3,               2024-06-03
      2024-08-30, My flight is booked for September 2,             2024-09-02
      2024-07-15, The wedding is set for May 10,                   2025-05-10
      2024-02-01, I will start the new job on January 15,          2025-01-15
      2024-11-05, This coming Saturday we host the party,          2024-11-09
      2024-04-28, I'm running a marathon in May,                   2024-05-01..2024-05-31
      2024-04-28, I'm taking my exam on May 2,                     2024-05-02
      2024-12-28, We're celebrating on January 1,                  2025-01-01
      2024-03-03, I'm planning a trip to Rome in October,          2024-10-01..2024-10-31
      2024-10-20, Mia is turning five on November 2,               2024-11-02
      2024-06-10, I'm heading to Lisbon on the weekend,            2024-06-15..2024-06-16
      2024-01-20, We are visiting Kyoto in March,                  2024-03-01..2024-03-31
      2024-07-01, I'm starting a pottery course on August 5,       2024-08-05
      2024-02-14, I'm seeing the dentist on Thursday,              2024-02-15
      2024-05-31, The team is launching the app in July,           2024-07-01..2024-07-31
      2024-05-31, I'm going to Berlin on June 1,                   2024-06-01
      2024-11-20, I'm about to leave for Canada in December,       2024-12-01..2024-12-31
      2024-08-15, My brother is graduating in June,                2025-06-01..2025-06-30
      2024-03-25, My cousin arrives on April 2,                    2024-04-02
      2024-09-02, My parents are coming in October,                2024-10-01..2024-10-31
      2024-12-01, Next month I'm starting at a new company,        2025-01-01..2025-01-31
      2024-06-01, I can't wait for my holiday on July 14,          2024-07-14
      2024-10-10, I'm looking forward to the trip on October 30,   2024-10-30
      2024-01-05, I'm hoping to run the race in April,             2024-04-01..2024-04-30
      2024-04-01, We're hiking Snowdon this weekend,               2024-04-06..2024-04-07
      2024-09-02, Our kids are also starting school in September,  2024-09-01..2024-09-30
      2024-06-01, She had to cancel so she is now visiting on July 20th instead, 2024-07-20
      2024-06-01, We're finally moving on August 3,                2024-08-03
      2024-02-10, I'm also really looking forward to May 4,        2024-05-04
      2024-11-20, Our orchestra concert is on December 14th,       2024-12-14
      2024-10-01, The party is on Saturday,                        2024-10-05
      2024-03-10, My exams are in May,                             2024-05-01..2024-05-31
      2024-11-20, The recital's on December 2,                     2024-12-02
      2024-08-20, The final is really on July 4,                   2025-07-04
      2024-11-20, The concert was on December 14th,                2023-12-14
      2024-10-01, It was fun on Saturday,                          2024-09-28
      2024-09-02, My sister visited on August 12th,                2024-08-12
      2024-09-02, It was amazing on August 3,                      2024-08-03
      2024-09-02, It's amazing that we met in July,                2024-07-01..2024-07-31
      2024-09-02, The wedding was in October,                      2023-10-01..2023-10-31
      """)
  void resolvesPlansForward(String anchor, String text, String expected) {
    assertThat(normalizer.resolve(text, LocalDate.parse(anchor))).contains(parse(expected));
  }

  @Test
  void eachDateTakesTheTenseOfItsOwnClause() {
    // one sentence, a past event and a plan: each date is resolved in its own clause's direction
    List<DateMention> found = normalizer.find(
        "She had to cancel in March, so she is now visiting on July 20th instead.", LocalDate.parse("2024-06-01"));
    assertThat(found).hasSize(2);
    assertThat(found.get(0).text()).contains("March");
    assertThat(found.get(1).text()).contains("July 20th");
    assertThat(found.get(0).range().start()).isEqualTo(LocalDate.parse("2024-03-01"));
    assertThat(found.get(1).range().start()).isEqualTo(LocalDate.parse("2024-07-20"));
    // a clause without a marker of its own keeps the sentence's tense
    assertThat(TemporalNormalizer.clauseTense("I'm flying out, on June 20th", 17, Tense.FUTURE))
        .isEqualTo(Tense.FUTURE);
  }

  @Test
  void findsMentionsInOrderWithOffsetsAndLongestMatch() {
    String s = "On 8 May, 2023 I said I went there yesterday, and I'll go again next week.";
    List<DateMention> found = normalizer.find(s, LocalDate.parse("2023-05-10"));
    assertThat(found).extracting(DateMention::text).containsExactly("8 May, 2023", "yesterday", "next week");
    assertThat(found.get(0).absolute()).isTrue();
    assertThat(found.get(1).absolute()).isFalse();
    assertThat(s.substring(found.get(1).start(), found.get(1).end())).isEqualTo("yesterday");
  }

  @Test
  void pluralWeekdaysAreHabitsNotDates() {
    assertThat(normalizer.find("I swim on Fridays", LocalDate.parse("2023-05-10"))).isEmpty();
    assertThat(normalizer.find("We sing every Tuesday and each Sunday", LocalDate.parse("2023-05-10"))).isEmpty();
    assertThat(normalizer.find("We rehearse on Thursday evenings", LocalDate.parse("2023-05-10"))).isEmpty();
    assertThat(normalizer.find("I run on Sunday mornings and Friday nights", LocalDate.parse("2023-05-10"))).isEmpty();
    // one evening is a date
    assertThat(normalizer.find("We rehearsed on Thursday evening", LocalDate.parse("2023-05-10"))).hasSize(1);
  }

  @Test
  void relativeExpressionsNeedAnAnchorAbsoluteOnesDoNot() {
    assertThat(normalizer.resolve("yesterday", null)).isEmpty();
    assertThat(normalizer.resolve("8 May, 2023", null)).contains(DateRange.day(LocalDate.of(2023, 5, 8)));
  }

  @Test
  void scopeKeepsUnparseableTextAndFlagsIt() {
    TemporalScope s = normalizer.scope("2023-05-07", "sometime in spring-ish", "", LocalDate.parse("2023-05-10"));
    assertThat(s.unparsed()).isTrue();
    assertThat(s.tValidFrom()).isEqualTo("sometime in spring-ish");
    assertThat(s.span()).isEqualTo(DateRange.day(LocalDate.of(2023, 5, 7)));

    TemporalScope ok = normalizer.scope("", "2023-05-01", "2023-05-31", null);
    assertThat(ok.unparsed()).isFalse();
    assertThat(ok.span()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 1), LocalDate.of(2023, 5, 31)));

    TemporalScope none = normalizer.scope("", "", "", null);
    assertThat(none.span()).isNull();
    assertThat(none.unparsed()).isFalse();
  }

  @Test
  void labelsDaysMonthsYearsAndRanges() {
    LocalDate d = LocalDate.of(2023, 5, 7);
    assertThat(TemporalNormalizer.label(DateRange.day(d))).isEqualTo("2023-05-07");
    assertThat(TemporalNormalizer.label(DateRange.monthOf(d))).isEqualTo("2023-05");
    assertThat(TemporalNormalizer.prose(DateRange.monthOf(d))).isEqualTo("May 2023");
    assertThat(TemporalNormalizer.label(new DateRange(LocalDate.of(2023, 1, 1), LocalDate.of(2023, 12, 31))))
        .isEqualTo("2023");
    assertThat(TemporalNormalizer.label(new DateRange(d, d.plusDays(2)))).isEqualTo("2023-05-07 to 2023-05-09");
  }

  @Test
  void tenseFromMarkers() {
    assertThat(Tense.of("I'll see you there")).isEqualTo(Tense.FUTURE);
    assertThat(Tense.of("We are going to paint")).isEqualTo(Tense.FUTURE);
    assertThat(Tense.of("We painted it")).isEqualTo(Tense.PAST);
    assertThat(Tense.of("I like painting")).isEqualTo(Tense.UNKNOWN);
    assertThat(Tense.of("The next day we walked home")).isEqualTo(Tense.PAST);
  }

  private static DateRange parse(String expected) {
    int dots = expected.indexOf("..");
    if (dots < 0) {
      return DateRange.day(LocalDate.parse(expected));
    }
    return new DateRange(LocalDate.parse(expected.substring(0, dots)), LocalDate.parse(expected.substring(dots + 2)));
  }
}
