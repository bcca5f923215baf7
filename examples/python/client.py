"""A small client of the eligibility API with `requests` (pip install requests).

    npm start                                   # in the repository root: the API on 127.0.0.1:3000
    python3 examples/python/client.py           # mock eligibility, then a validation error

Environment: API_URL (default http://127.0.0.1:3000), API_TOKEN (default local-dev-token).
Errors are matched on their stable `code`; `requestId` is what to quote when reporting one.
"""
import os
import sys
import time
import uuid

import requests

API_URL = os.environ.get("API_URL", "http://127.0.0.1:3000").rstrip("/")
API_TOKEN = os.environ.get("API_TOKEN", "local-dev-token")


class ApiError(Exception):
    def __init__(self, status, body, request_id):
        self.status = status
        self.code = body.get("code")  # absent on the exact bodies (401, 403, 429, mock scenarios)
        self.message = body.get("message", "")
        self.errors = body.get("errors", [])
        self.request_id = request_id
        super().__init__(f"{status} {self.code or ''} {self.message} (request {request_id})")


def post(path, body, idempotency_key=None, retries=1):
    """POSTs JSON; retries once after Retry-After on 503/409/429, safely thanks to the Idempotency-Key."""
    headers = {
        "Authorization": f"Bearer {API_TOKEN}",
        "X-Request-Id": f"py-{uuid.uuid4().hex[:12]}",
        "Idempotency-Key": idempotency_key or str(uuid.uuid4()),
    }
    for attempt in range(retries + 1):
        response = requests.post(f"{API_URL}{path}", json=body, headers=headers, timeout=130)
        if response.ok:
            return response.json()
        retry_after = response.headers.get("Retry-After")
        if response.status_code in (409, 429, 503) and retry_after and attempt < retries:
            time.sleep(min(int(retry_after), 60))
            continue
        raise ApiError(response.status_code, response.json(), response.headers.get("x-request-id"))


def main():
    health = requests.get(f"{API_URL}/api/health", timeout=10).json()
    print(f"health: {health['status']} {health['version']}")

    patient = {
        "patientFirstName": "John",
        "patientLastName": "Doe",
        "patientDOB": "01-01-1980",
        "patientMemberId": "123456789",
        "dateOfCoverage": "01-01-2025",
        "payerId": "PAYER001",
        "providerId": "PROVIDER001",
        "mockRequest": True,
    }
    answer = post("/api/eligibility/v1", patient)
    individual = answer["inNetwork"]["individual"]
    print(f"{answer['message']} copay {individual['copay']}, deductible "
          f"{individual['deductible']['remaining']} of {individual['deductible']['total']} left")

    try:
        post("/api/eligibility/v1", {**patient, "patientDOB": "02-30-1980", "runCOBCheck": True})
    except ApiError as error:
        print(f"refused as expected: {error.code}")
        for problem in error.errors:
            print(f"  {problem['field']}: {problem['message']}")
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
