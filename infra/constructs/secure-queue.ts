import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * An SQS queue encrypted with SQS-managed keys and refusing plain-HTTP requests.
 * SSE-SQS rather than a customer key: messages carry only site ids and dates, and EventBridge
 * and Lambda can deliver to it without a key policy.
 */
export function secureQueue(scope: Construct, id: string, props: sqs.QueueProps = {}): sqs.Queue {
  return new sqs.Queue(scope, id, {
    ...props,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
}

/**
 * A {@link secureQueue} that is the last stop of failed work: kept 14 days, watched by a depth
 * alarm (see {@link queueDepthAlarm}), and with no redrive of its own, which cdk-nag is told.
 */
export function deadLetterQueue(
  scope: Construct,
  id: string,
  holds: string,
  props: Pick<sqs.QueueProps, 'fifo'> = {},
): sqs.Queue {
  const queue = secureQueue(scope, id, { ...props, retentionPeriod: Duration.days(14) });
  const reason = `This queue is itself the dead-letter queue of ${holds}; messages wait here for an operator, who is alerted by an alarm on its depth, and a further redrive would only move them.`;
  for (const rule of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
    Validations.of(queue).acknowledge({ id: rule, reason });
  }
  return queue;
}

export interface QueueDepthAlarmProps {
  readonly queue: sqs.IQueue;
  readonly topic: sns.ITopic;
  readonly description: string;
}

/** Alarms as soon as one message is visible in a dead-letter queue. */
export function queueDepthAlarm(
  scope: Construct,
  id: string,
  props: QueueDepthAlarmProps,
): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    alarmDescription: props.description,
    metric: props.queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: cloudwatch.Stats.MAXIMUM,
    }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  const action = new cwActions.SnsAction(props.topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}
