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
}

/**
 * Alarms on what the functions report as metrics: authentication failures of the token
 * refresher, and the daily archive's heartbeat, which fires when no archive completed for
 * more than a day (the metric is missing, so missing data counts as breaching).
 */
export class ServiceAlarms extends Construct {
  readonly authFailures: cloudwatch.Alarm;
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

    this.authFailures = new cloudwatch.Alarm(this, 'AuthFailures', {
      alarmDescription:
        'Skywatch token refresher could not authenticate: check the credentials secret (docs/deploy.md).',
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'AuthFailures',
        dimensionsMap: { service: 'token-refresher' },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

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

    for (const alarm of [this.authFailures, this.archiveHeartbeat]) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
  }
}
