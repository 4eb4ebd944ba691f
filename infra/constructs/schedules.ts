import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { SkywatchFunction } from './skywatch-function.js';

export interface ScheduledFunction {
  readonly target: SkywatchFunction;
  readonly schedule: events.Schedule;
  readonly description: string;
}

export interface SchedulesProps {
  readonly schedules: Readonly<Record<string, ScheduledFunction>>;
}

/**
 * One EventBridge rule per scheduled function. Rules rather than EventBridge Scheduler: the
 * handler gets the standard `Scheduled Event`, and the invoke permission is a resource policy
 * on the function, not one more role. Events that cannot be delivered go to the function's
 * dead-letter queue, the same one its failed invocations go to.
 */
export class Schedules extends Construct {
  readonly rules: Record<string, events.Rule> = {};

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    for (const [name, { target, schedule, description }] of Object.entries(props.schedules)) {
      if (!target.deadLetterQueue) {
        throw new Error(`Schedules: ${name} has no dead-letter queue; give it asyncRetryAttempts.`);
      }
      this.rules[name] = new events.Rule(this, name, {
        description,
        schedule,
        targets: [
          new targets.LambdaFunction(target.function, {
            deadLetterQueue: target.deadLetterQueue,
            retryAttempts: 2,
            maxEventAge: Duration.hours(1),
          }),
        ],
      });
    }
  }
}
