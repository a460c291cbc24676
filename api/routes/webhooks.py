"""A batch's webhook log, and redelivery."""

from __future__ import annotations

from api import schemas
from api.deps import (
    CallerDep,
    EventIdPath,
    IdPath,
    ServicesDep,
    not_found,
)
from api.routes.common import own_batch, v1
from shared.store import (
    deliveries_of,
    events_of_batch,
    find_event,
    reopen_event,
)


@v1.get("/batches/{batch_id}/webhooks", response_model=schemas.WebhookLog, tags=["webhooks"],
        summary="The batch's events and every delivery attempt")
def webhook_log(batch_id: IdPath, caller: CallerDep) -> schemas.WebhookLog:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
        events = [
            schemas.EventView(id=event.id, type=event.type, created_at=event.created_at, delivered_at=event.delivered_at,
                              gave_up_at=event.gave_up_at, payload=event.payload,
                              deliveries=[schemas.DeliveryView.model_validate(d, from_attributes=True)
                                          for d in deliveries_of(session, event.id)])
            for event in events_of_batch(session, batch.id)
        ]
        return schemas.WebhookLog(batch_id=batch.id, events=events)


@v1.post("/webhooks/{event_id}/redeliver", response_model=schemas.RedeliveryAccepted, status_code=202,
         tags=["webhooks"], summary="Send an event again, even one delivered before")
def redeliver(event_id: EventIdPath, caller: CallerDep, services: ServicesDep) -> schemas.RedeliveryAccepted:
    with caller.project_id_session() as (project_id, session):
        event = find_event(session, project_id, event_id)
        if event is None:
            raise not_found(f"event {event_id!r}")
        reopen_event(session, event)
        sent = services.send_events(session, [event.id])
        return schemas.RedeliveryAccepted(event_id=event.id, queued=bool(sent))
