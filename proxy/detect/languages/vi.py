"""Vietnamese: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    # Every syllable is its own word and nothing inflects: a prefix would read "ban", folded from
    # "bán" and "bạn", inside "bank".
    whole_words=True,
    # "not" ("trợ lý không làm gì:", what the assistant does not do).
    limits=("không",),
)

WORDS = {
    "ignore": "bỏ qua|quên đi|quên hết|quên tất cả|phớt lờ|lờ đi|không tuân theo",
    "previous": "trước đó|phía trên|ở trên|ban đầu|trước",
    "all": "tất cả|mọi|toàn bộ",
    "instructions": "hướng dẫn|chỉ dẫn|chỉ thị|quy tắc|mệnh lệnh|=lệnh|ràng buộc|giới hạn",
    "system": "hệ thống",
    "prompt": "=prompt|lời nhắc",
    "message": "tin nhắn|thông điệp",
    "reveal": "hiển thị|tiết lộ|lặp lại|in ra|cho tôi xem|cho tôi biết|viết ra|sao chép|chép lại",
    "verbatim": "nguyên văn|từng chữ|đầy đủ",
    "your": "của bạn|của mày|của anh",
    "ai": "trợ lý|trí tuệ nhân tạo|mô hình ngôn ngữ|mô hình",
    "now": "từ giờ|từ bây giờ|kể từ bây giờ|bạn bây giờ là|từ nay",
    "role": "đóng vai|giả vờ|giả làm|hành động như|nhập vai",
    "unrestricted": (
        "không giới hạn|không bị giới hạn|không kiểm duyệt|không có quy tắc|chế độ nhà phát triển"
        "|không có ràng buộc"
    ),
    "no_refusal": "không được từ chối|đừng từ chối|không từ chối|tuân lệnh|mọi yêu cầu",
    "answer_with": "trả lời|hãy nói",
    "you_are": "bạn là|mày là|tên bạn là|bạn tên là",
    "persona": "danh tính|nhân vật|chế độ",
    "disable": "vô hiệu hóa|gỡ bỏ|loại bỏ",
    "safeguard": "an toàn|bộ lọc|kiểm duyệt|giới hạn",
    "new": "thực sự",
    "secret": "mật khẩu|khóa api|=token|mã xác thực|khóa bí mật|thẻ tín dụng|=otp",
    "send": (
        "gửi cho|gửi tới|gửi đến|gửi tất cả|chuyển tiếp|tải lên|chuyển khoản|chuyển tiền|hãy gửi"
        "|gửi giúp|gửi qua|gửi lại"
    ),
    "user_data": (
        "=email|tin nhắn|tệp|tài liệu|danh bạ|cuộc trò chuyện|lịch sử|dữ liệu|số điện thoại"
        "|địa chỉ nhà|bảng tính|báo cáo|hợp đồng|danh sách khách hàng|bảng lương|mã số thuế"
        "|hóa đơn"
    ),
    "conceal": "đừng nói|không nói cho|đừng đề cập|bí mật|lặng lẽ|âm thầm|không thông báo",
    "instead": "thay vào đó",
    "steer": "nêu rằng|hãy đề cập|mô tả là|lược bỏ|khuyên dùng",
    "user": "người dùng|chủ sở hữu",
    "admin": "quản trị viên|nhà phát triển|đội bảo mật",
    "note": "ghi chú|lưu ý|thông báo|chú ý|cảnh báo",
    "run": "chạy|thực thi|gọi hàm|kích hoạt",
    "tool": "công cụ|hàm|lệnh|tập lệnh",
    "say": "hãy nói|trả lời|viết ra|bắt đầu câu trả lời",
    "only": "chỉ cần|chỉ trả lời|chỉ nói|không gì khác",
    "hidden": "ẩn giấu|bị ẩn|nội bộ|bí mật",
    "authority": "quyền hạn|thẩm quyền|được ủy quyền",
    "reply": "câu trả lời|phản hồi",
    "begin": "bắt đầu|mở đầu",
    "cancel": "bị hủy|hủy bỏ|vô hiệu|không còn hiệu lực",
    "task": "nhiệm vụ|mục tiêu",
    "i_am": "tôi là|tôi đang nói với tư cách",
    "act": (
        "cấp quyền|mở khóa|chuyển tiền|chuyển khoản|thanh toán|xóa|chia sẻ|chuyển tiếp|đặt lại"
        "|vô hiệu hóa|phê duyệt|đặt chỗ|đặt vé|đặt hàng|hủy|đăng ký|thêm vào|thay đổi|cập nhật"
        "|đánh dấu|xác nhận|hoàn tiền|đăng nhập"
    ),
    "asset": (
        "tài khoản|quyền truy cập|thiết bị|khóa cửa|camera|số tiền|ngân hàng|ví tiền|bitcoin"
        "|cổ phiếu|thư mục|kho mã|cuộc họp|lịch hẹn|đặt phòng|chuyến bay|khách sạn|giỏ hàng"
        "|thẻ ngân hàng|số thẻ|phương thức thanh toán|thông tin ngân hàng|giảm giá|phiếu quà tặng"
        "|hộp thư|địa chỉ giao hàng|gói đăng ký|đơn hàng|đơn này"
    ),
    "please": "vui lòng|làm ơn",
    "my": "của tôi|của mình",
    "given": "bạn được giao|bạn nhận được|được cung cấp cho bạn|được đưa cho bạn",
    "urgent": "ngay lập tức|ngay bây giờ|khẩn cấp",
    "if_you_are": "nếu bạn là|nếu mày là|vì bạn là",
    "reading_this": "đang đọc|đang xử lý|đang tóm tắt|đang xem|xử lý",
    "on_behalf": "thay mặt|thay cho|hộ cho",
    "wish": "yêu cầu|muốn|nhờ",
    "modal": "phải|cần phải|=nên",
    "discussion": "tấn công|kẻ tấn công|tiêm nhiễm|nghiên cứu|ví dụ|lỗ hổng",
}
