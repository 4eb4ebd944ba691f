import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** Namespace the functions' embedded-format metrics are written to. */
export const METRICS_NAMESPACE = 'Skywatch';

export interface ServiceAlarmsProps {
  readonly topic: sns.ITopic;
  /** Hours without an `ArchiveCompleted` datapoint before the heartbeat alarm fires (25–168). */
  readonly archiveHeartbeatHours: number;
  /**
   * Whether the functions sign page links (the `reportLinks` setting): only then can they
   * count `PageLinkFailures`.
   * @default false
   */
  readonly pageLinks?: boolean;
}

/**
 * A count a function reports when something went wrong that fails no invocation, so that no
 * Errors alarm shows it: one alarm per metric and `service` dimension that reports it.
 */
interface Count {
  /** The alarm's construct id. */
  readonly id: string;
  readonly metricName: string;
  /** The function's service name (infra/functions.ts), which is its metrics' `service`. */
  readonly service: string;
  /** What happened and what to check, with the doc section: the operator's first read. */
  readonly description: string;
}

const AUTH_FAILURES: Count = {
  id: 'AuthFailures',
  metricName: 'AuthFailures',
  service: 'token-refresher',
  description:
    'Skywatch token refresher could not authenticate: check the credentials secret (docs/deploy.md).',
};

const historyNotWritten = (service: string) =>
  `Skywatch ${service} could not write the alert history; the alerts themselves went out. Check its log line "alert history not written" (the error), and S3 and KMS access to reports/alert-events/ (docs/operations.md, "Alert history").`;
const linkNotSigned = (service: string) =>
  `Skywatch ${service} could not sign a page link; the S3 location stood in. Check its log line "page link not signed" and the report link key secret (docs/operations.md, "Report links").`;

const COUNTS: readonly Count[] = [
  {
    id: 'AlertRoutingFallback',
    metricName: 'AlertRoutingFallback',
    service: 'infection-alerter',
    description:
      'Skywatch alert routing unusable: every alert goes to the default destinations. Check the routing parameter and the infection alerter\'s log line "alert routing unusable" (docs/operations.md, "Routing").',
  },
  {
    id: 'AlertMutesFallback',
    metricName: 'AlertMutesFallback',
    service: 'infection-alerter',
    description:
      'Skywatch maintenance windows unusable: nothing is held, every alert is sent. Check the windows parameter and the infection alerter\'s log line "maintenance windows unusable" (docs/operations.md, "Maintenance windows").',
  },
  {
    id: 'AlerterHistoryWriteFailed',
    metricName: 'AlertHistoryWriteFailed',
    service: 'infection-alerter',
    description: historyNotWritten('infection-alerter'),
  },
  {
    id: 'NotifierHistoryWriteFailed',
    metricName: 'AlertHistoryWriteFailed',
    service: 'alert-notifier',
    description: historyNotWritten('alert-notifier'),
  },
];

/** The digest's link (infection alerter) and the built pages' links (report builder). */
const PAGE_LINK_COUNTS: readonly Count[] = [
  {
    id: 'AlerterPageLinkFailures',
    metricName: 'PageLinkFailures',
    service: 'infection-alerter',
    description: linkNotSigned('infection-alerter'),
  },
  {
    id: 'ReportBuilderPageLinkFailures',
    metricName: 'PageLinkFailures',
    service: 'report-builder',
    description: linkNotSigned('report-builder'),
  },
];

/**
 * Alarms on what the functions report as metrics: counts of what went wrong without failing
 * an invocation (authentication, an alert document fallen back from, the alert history, page
 * links), any one in five minutes; and the daily archive's heartbeat, which fires when no
 * archive completed for more than a day (the metric is missing, so missing data counts as
 * breaching).
 */
export class ServiceAlarms extends Construct {
  readonly authFailures: cloudwatch.Alarm;
  /** The other counts' alarms, by construct id. */
  readonly counts: Readonly<Record<string, cloudwatch.Alarm>>;
  readonly archiveHeartbeat: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const hours = props.archiveHeartbeatHours;
    if (!Number.isInteger(hours) || hours < 25 || hours > 168) {
      throw new Error(
        `ServiceAlarms: archiveHeartbeatHours must be an integer from 25 to 168 (got ${hours}).`,
      );
    }
    const action = new cwActions.SnsAction(props.topic);

    this.authFailures = this.countAlarm(AUTH_FAILURES);
    this.counts = Object.fromEntries(
      [...COUNTS, ...(props.pageLinks ? PAGE_LINK_COUNTS : [])].map((c) => [
        c.id,
        this.countAlarm(c),
      ]),
    );

    this.archiveHeartbeat = new cloudwatch.Alarm(this, 'ArchiveHeartbeat', {
      alarmDescription: `Skywatch daily archive: no ArchiveCompleted in the last ${hours} hours.`,
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'ArchiveCompleted',
        dimensionsMap: { service: 'report-fetcher' },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.hours(1),
      }),
      threshold: 1,
      evaluationPeriods: hours,
      datapointsToAlarm: hours,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });

    for (const alarm of [this.authFailures, ...Object.values(this.counts), this.archiveHeartbeat]) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
  }

  /** Fires on any one in five minutes; none reported is nothing wrong. */
  private countAlarm(count: Count): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this, count.id, {
      alarmDescription: count.description,
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: count.metricName,
        dimensionsMap: { service: count.service },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
